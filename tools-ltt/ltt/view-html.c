// SPDX-License-Identifier: GPL-2.0
/*
 * The page of `ltt view` (view.html: markup, style and script, ours and
 * nothing else), in the binary as one NUL-terminated string.  The
 * assembler reads the file, so that it stays a plain HTML file to edit.
 */
#ifndef LTT_VIEW_HTML
#define LTT_VIEW_HTML "ltt/view.html"
#endif

__asm__(".section .rodata\n"
	".global ltt_view_html\n"
	".type ltt_view_html, @object\n"
	"ltt_view_html:\n"
	".incbin \"" LTT_VIEW_HTML "\"\n"
	".byte 0\n"
	".size ltt_view_html, . - ltt_view_html\n"
	".previous\n");
