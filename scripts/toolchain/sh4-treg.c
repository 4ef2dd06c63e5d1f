// SPDX-License-Identifier: GPL-2.0
/*
 * Does the sh4 cross compiler keep the test of "if (m)"?  Debian 12's
 * sh4-linux-gnu-gcc 12.2.0-13cross1 does not at -O1 and above: its
 * sh_treg_combine pass takes the load of m for a store of the inverted
 * T bit, deletes the "tst" before the branch, and the branch tests
 * whatever T the comparison with -2 left.  The cause is GCC's:
 * sh_treg_combine.cc declares the predicates it calls as returning int,
 * GCC 12 defines them returning bool, and the pass reads garbage above
 * the byte they set (scripts/toolchain/gcc-12-sh-treg-combine-bool.patch).
 *
 * The kernel that compiler builds never prints a line: the zImage's
 * decompressor stops in error() ("if (buf)" of __gunzip() decided on a
 * stale T: "Not a gzip file"), and with that worked around,
 * vprintk_emit() spins in printk_delay()'s loop ("if
 * (unlikely(printk_delay_msec))" taken on a stale T).
 *
 * scripts/arch.sh compiles this with -O2 -S and wants a test of m (tst,
 * or cmp/eq #0) in f(); without one it builds sh4 with a mended cc1
 * (scripts/toolchain/cc1.sh).
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
