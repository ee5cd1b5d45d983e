# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Unregistered data: never_register=1, then register_always=0, then a
# reload with the defaults. Each login gets ext4 checksums and fio verify
# (randrw, 4 KiB to 1 MiB blocks, so commands carry many segments). With
# our driver the per-channel counters prove it: never_register=1 posts no
# registration at all, register_always=0 none for single-segment commands
# (4 KiB direct reads) and some for multi-segment ones, the defaults
# register again; the security note about the unsafe global rkey is logged
# only when asked for, and ib_core's own line only then (both drivers).
#
# lab-drivers: ours intree
. /lab/lib-srp.sh

# Our one security note at load, and ib_core's line per PD with the key.
NOTE='SRP uses a PD with an unsafe global rkey'
KNOTE='enabling unsafe global rkey'
MIX='--bssplit=4k/25:16k/25:128k/25:1m/25'

# noreg_stat HOST NAME: counter NAME summed over the host's channels.
noreg_stat() {
	cat /sys/kernel/debug/ib_srp/host$1/ch* |
		awk -v n="$2" '$1 == n { s += $2 } END { print s + 0 }'
}

# noreg_reset HOST: zero the counters of every channel of HOST.
noreg_reset() {
	local f
	for f in /sys/kernel/debug/ib_srp/host$1/ch*; do
		echo 1 > "$f" || return 1
	done
}

# noreg_counts HOST COND: print the host's cmds/regs/invs and evaluate
# COND, a test(1) expression over $c (commands), $r (registrations) and
# $i (local invalidations).
noreg_counts() {
	local c r i
	c=$(noreg_stat $1 cmds) r=$(noreg_stat $1 regs) i=$(noreg_stat $1 invs)
	lab_note "host $1: cmds $c regs $r invs $i"
	echo "cmds $c regs $r invs $i"
	eval "test $2"
}

# noreg_notes: how many of our notes and ib_core's lines the kernel log
# has so far, as "OURS KERNEL".
noreg_notes() { echo "$(dmesg | grep -c "$NOTE") $(dmesg | grep -c "$KNOTE")"; }

# noreg_notes_since "OURS KERNEL" OURS_MIN OURS_MAX KERNEL_MIN KERNEL_MAX:
# the counts added since the earlier noreg_notes are within the bounds.
noreg_notes_since() {
	local o k
	set -- $1 $2 $3 $4 $5 $6
	read -r o k <<< "$(noreg_notes)"
	o=$((o - $1)) k=$((k - $2))
	echo "new notes: ours $o, ib_core $k"
	[ $o -ge $3 ] && [ $o -le $4 ] && [ $k -ge $5 ] && [ $k -le $6 ]
}

# noreg_login TAG: log in on path 0, wait for the LUNs; sets $h and $d.
noreg_login() {
	h=$(lab_srp_login 0) && pass "[$1] login" || { fail "[$1] login"; return 1; }
	srp_wait_disks $h 1
	d=$(lab_host_disks $h | head -1)
	[ -n "$d" ] || { fail "[$1] disk" "host $h has no disk"; return 1; }
	# udev's probes of the new disks must not land in the counters.
	udevadm settle -t 30 2>/dev/null
	return 0
}

# noreg_data TAG: ext4 checksums, fio verify over mixed blocks and 1 MiB.
noreg_data() {
	check "[$1] ext4 on $d: data survives remount" lab_data_check $d
	check "[$1] fio verify randrw 4k-1m QD16" lab_fio_verify $d $MIX --iodepth=16 --size=64m
	check "[$1] fio verify randrw 1m QD8" lab_fio_verify $d --bs=1m --iodepth=8 --size=64m
}

# noreg_read4k DEV: 4 KiB direct random reads on DEV opened read-only,
# the longest within the lab's bound (LAB_IO_BOUND, lib.sh).
noreg_read4k() {
	fio --name=read4k --filename=/dev/$1 --readonly --direct=1 \
		--ioengine=libaio --rw=randread --bs=4k --iodepth=16 --size=16m \
		--output-format=json --output=/tmp/noreg-read4k.json &&
		lab_fio_bound /tmp/noreg-read4k.json "fio randread on $1"
}

noreg_done() {
	check "[$1] logout" srp_logout $h
	check "[$1] unload" lab_unload ib_srp
}

# noreg_load_unsafe PARAM SHOWN: load ib_srp with $tag (PARAM=value), check
# that PARAM reads SHOWN, that ib_core enabled the global rkey and that our
# security note came exactly once.
noreg_load_unsafe() {
	local n0
	n0=$(noreg_notes)
	check "[$tag] load" lab_srp_load $tag
	check "[$tag] parameter reads $2" grep -qx $2 /sys/module/ib_srp/parameters/$1
	check "[$tag] ib_core enabled an unsafe global rkey" noreg_notes_since "$n0" 0 1 1 99
	[ "$DRIVER" = ours ] &&
		check "[$tag] security note logged once" noreg_notes_since "$n0" 1 1 1 99
}

lab_srpt_up 2

# 1. never_register=1: the global rkey for everything.
tag=never_register=1
noreg_load_unsafe never_register Y
if noreg_login $tag; then
	[ "$DRIVER" = ours ] && noreg_reset $h
	noreg_data $tag
	if [ "$DRIVER" = ours ]; then
		check "[$tag] counters: commands, no registration" \
			noreg_counts $h '$c -gt 0 -a $r -eq 0 -a $i -eq 0'
	fi
	noreg_done $tag
else
	modprobe -r ib_srp
fi

# 2. register_always=0: one segment under the global rkey, more registered.
tag=register_always=0
noreg_load_unsafe register_always N
if noreg_login $tag; then
	check "[$tag] fio verify randrw 4k QD16" lab_fio_verify $d --bs=4k --iodepth=16 --size=16m
	# Page-aligned 4 KiB direct reads are one segment each, so nothing
	# may be registered. Opened read-only: closing a disk opened for
	# writing makes udev re-probe it with multi-page buffered reads.
	sleep 1
	udevadm settle -t 30 2>/dev/null
	[ "$DRIVER" = ours ] && noreg_reset $h
	check "[$tag] fio randread 4k QD16, read-only open" noreg_read4k $d
	if [ "$DRIVER" = ours ]; then
		check "[$tag] counters: 4k commands, no registration" \
			noreg_counts $h '$c -gt 0 -a $r -eq 0'
		noreg_reset $h
	fi
	noreg_data $tag
	if [ "$DRIVER" = ours ]; then
		check "[$tag] counters: multi-segment commands registered" \
			noreg_counts $h '$c -gt 0 -a $r -gt 0'
	fi
	noreg_done $tag
else
	modprobe -r ib_srp
fi

# 3. defaults: everything registered again, no global rkey.
tag=defaults
n0=$(noreg_notes)
check "[$tag] load" lab_srp_load
check "[$tag] parameters read never_register=N register_always=Y" sh -c \
	'grep -qx N /sys/module/ib_srp/parameters/never_register &&
	 grep -qx Y /sys/module/ib_srp/parameters/register_always'
check "[$tag] no unsafe global rkey, no security note" noreg_notes_since "$n0" 0 0 0 0
if noreg_login $tag; then
	[ "$DRIVER" = ours ] && noreg_reset $h
	check "[$tag] fio verify randrw 4k-1m QD16" lab_fio_verify $d $MIX --iodepth=16 --size=64m
	if [ "$DRIVER" = ours ]; then
		check "[$tag] counters: commands registered" \
			noreg_counts $h '$c -gt 0 -a $r -gt 0'
	fi
	noreg_done $tag
else
	modprobe -r ib_srp
fi
