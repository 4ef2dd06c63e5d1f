# SPDX-License-Identifier: GPL-2.0
#
# The check of the shell tests, sourced by each: check NAME EXPECTED ACTUAL
# counts into $pass and $fail, and says on stderr what failed, named after
# the script that runs it.

# check NAME EXPECTED ACTUAL
check() {
	if [[ $2 == "$3" ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "${0##*/}: FAIL $1: expected \"$2\", got \"$3\"" >&2
	fi
}
