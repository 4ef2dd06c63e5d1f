// SPDX-License-Identifier: GPL-2.0
/*
 * Does the sh4 cross compiler keep the test of "if (m)"?  Debian 12's
 * sh4-linux-gnu-gcc 12.2.0-13cross1 does not at -O1 and above: its
 * sh_treg_combine pass takes the load of m for a store of the inverted
 * T bit, deletes the "tst" before the branch, and the branch tests
 * whatever T the comparison with -2 left.  The kernel it builds never
 * prints a line: the zImage's decompressor stops in error() ("Not a gzip
 * file": "if (buf)" of __gunzip() decided on a stale T), and with that
 * worked around, vprintk_emit() spins in printk_delay()'s loop
 * ("if (unlikely(printk_delay_msec))" taken on a stale T).
 *
 * scripts/arch.sh compiles this with -O2 -S and wants a test of m
 * (tst, or cmp/eq #0) in f() before it builds an sh4 kernel.
 */
extern int d;
extern int x;
void g(void);
int h(void);

void f(void)
{
	int m;

	if (h() == -2)
		x = 1;
	m = d;
	if (__builtin_expect(m, 0)) {
		while (m--)
			g();
	}
	h();
}
