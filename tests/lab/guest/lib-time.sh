# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Times on the guest clock and fio's report (sourced after /lab/lib.sh), for
# scenarios that bound how long a failure takes to be noticed or recovered:
#
#   lab_sub A B              A - B, two decimals
#   lab_within T LIMIT       T is a number of seconds and at most LIMIT
#   lab_ktime REGEX          kernel time stamp of the first message since the
#                            mark (lab_log_mark) that matches REGEX
#   lab_kdelta FROM TO       seconds from the first message since the mark
#                            matching FROM to the first matching TO (kernel
#                            clock); empty when either is missing
#   lab_watch SECS COND...   poll condition functions from LAB_T0
#   lab_fio_max_lat FILE     fio's longest I/O in s (a JSON report)
#   lab_fio_ok FILE RC       fio exited 0 and no job of its report failed

lab_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a - b }'; }
lab_within() {
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "not measured: '$1'"; return 1; }
	awk -v t="$1" -v l="$2" 'BEGIN { exit !(t <= l) }' || { echo "$1 s > $2 s"; return 1; }
}
lab_ktime() {
	lab_log_since | awk -v re="$1" '!done && $0 ~ re {
		sub(/^\[ */, ""); sub(/\].*/, ""); print; done = 1 }'
}
lab_kdelta() {
	local a b
	a=$(lab_ktime "$1")
	b=$(lab_ktime "$2")
	[ -n "$a" ] && [ -n "$b" ] && lab_sub "$b" "$a"
}

# lab_watch SECS COND...: poll the condition functions every 0.2 s until all
# hold or SECS have passed since LAB_T0 (an $EPOCHREALTIME); LAB_AT[COND] is
# then the seconds from LAB_T0 to the first poll that saw COND, or "never".
declare -A LAB_AT
lab_watch() {
	local secs=$1 c left el
	shift
	for c; do LAB_AT[$c]=; done
	while :; do
		left=0
		el=$(lab_sub "$EPOCHREALTIME" "$LAB_T0")
		for c; do
			[ -n "${LAB_AT[$c]}" ] && continue
			if $c >/dev/null 2>&1; then LAB_AT[$c]=$el; else left=1; fi
		done
		[ $left = 0 ] && return 0
		awk -v e="$el" -v s="$secs" 'BEGIN { exit !(e >= s) }' && break
		sleep 0.2
	done
	for c; do [ -n "${LAB_AT[$c]}" ] || LAB_AT[$c]=never; done
	return 1
}

lab_fio_max_lat() {
	jq -r '[.jobs[] | .read.lat_ns.max, .write.lat_ns.max] | max' "$1" |
		awk '/^[0-9]/ { printf "%.2f\n", $1 / 1e9 }'
}
lab_fio_errors() { jq -r '[.jobs[].error] | add' "$1"; }
lab_fio_ok() { [ "$2" -eq 0 ] && [ "$(lab_fio_errors "$1")" = 0 ]; }
