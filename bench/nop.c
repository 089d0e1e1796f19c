// SPDX-License-Identifier: MIT
/* nop: the smallest static program, exec'd by forkstorm from the guest's tmpfs. */
int main(void)
{
	return 0;
}
