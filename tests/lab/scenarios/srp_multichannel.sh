# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Channels that fail alone and reconnects that bring back only some of the
# channels, with ch_count=2 against the fake target (tests/fake-target/).
#
#  1. One channel is disconnected by the target (DREQ, fake target mode
#     "disconnect" on the trigger command, sent from CPU 1) and its first
#     login again is rejected (-J 3): the rport stays running, reads keep
#     working on the other channel, the channel is logged in again with
#     MULTICHAN_MULTI (the other channel is never dropped, no second
#     MULTICHAN_SINGLE login), is retried after the reject and comes back;
#     then both channels carry commands.
#  2. The target goes away: both channels drop, the rport is blocked and
#     reconnects; the target now rejects the second channel's login (-J 2):
#     the reconnect carries on with one channel, I/O works, and the missing
#     channel is logged in again in the background.
#
# lab-drivers: ours
# lab-provokes: srp-path srp-reconnect (the fake target disconnects channels)
. /lab/lib-hostile.sh

MC_ERR=/tmp/mc-reads.err

# mc_stat CH NAME: counter NAME of channel CH of the fake target's host.
mc_stat() {
	awk -v n="$2" '$1 == n { print $2 }' \
		/sys/kernel/debug/ib_srp/host$HOSTILE_HOST/ch$1
}

# mc_both_carry: after a counter reset, O_DIRECT reads from CPU 0 and from
# CPU 1 go out on channel 0 and channel 1 respectively.
mc_both_carry() {
	local c0 c1
	echo 1 > /sys/kernel/debug/ib_srp/host$HOSTILE_HOST/ch0
	echo 1 > /sys/kernel/debug/ib_srp/host$HOSTILE_HOST/ch1
	taskset -c 0 dd if=/dev/$HOSTILE_DEV of=/dev/null bs=64k count=16 iflag=direct status=none || return 1
	taskset -c 1 dd if=/dev/$HOSTILE_DEV of=/dev/null bs=64k count=16 iflag=direct status=none || return 1
	c0=$(mc_stat 0 cmds) c1=$(mc_stat 1 cmds)
	echo "commands: channel 0 $c0, channel 1 $c1"
	[ "${c0:-0}" -gt 0 ] && [ "${c1:-0}" -gt 0 ]
}

# mc_reads_start SECS: read and check the LUN's first 256 KiB in a loop for
# SECS seconds in the background, noting every failed read and every rport
# state other than running in $MC_ERR.
MC_PID=
mc_reads_start() {
	: > $MC_ERR
	rm -f $MC_ERR.count
	(
		end=$((SECONDS + $1)) n=0
		while [ $SECONDS -lt $end ]; do
			s=$(cat /sys/class/srp_remote_ports/port-$HOSTILE_HOST:1/state)
			[ "$s" = running ] || echo "rport $s" >> $MC_ERR
			hostile_read_ok 4K 1 >/dev/null || echo "read $n failed" >> $MC_ERR
			n=$((n + 1))
			sleep 0.2
		done
		echo "$n reads" > $MC_ERR.count
	) &
	MC_PID=$!
}

# mc_reads_clean: the background reads (waited for by the caller: check
# runs its command in a subshell) all succeeded with the rport running.
mc_reads_clean() {
	[ -s $MC_ERR.count ] || { echo "background reads did not finish"; return 1; }
	[ ! -s $MC_ERR ] || { sort $MC_ERR | uniq -c | head; return 1; }
}

lab_net_up
check "srp-fake-target is in the payload" hostile_have_fake || return 0
check "ib_srp loads" lab_srp_load

# 1. One channel dies alone.
HOSTILE_EXTRA=ch_count=2
if hostile_login disconnect -J 3; then
	pass "[one channel] login with 2 channels"
	check "[one channel] ch_count reads 2" \
		test "$(cat /sys/class/scsi_host/host$HOSTILE_HOST/ch_count)" = 2
	check "[one channel] both channels accepted" test "$(hostile_fake_count '^ACCEPT')" -eq 2
	lab_log_mark
	mc_reads_start 25
	sleep 2
	timeout 60 taskset -c 1 sg_raw -R -t 30 /dev/$HOSTILE_DEV c0 00 00 00 00 00 >/tmp/sg_raw.out 2>&1 &
	trig=$!
	check "[one channel] the target disconnects one channel" hostile_fake_saw '^LIE disconnect conn=' 20
	n=$(sed -n 's/^LIE disconnect conn=\([0-9]*\).*/\1/p' $FAKE_LOG | head -1)
	lab_note "channel of connection ${n:-?} disconnected"
	check "[one channel] kernel log: the others carry on" \
		lab_wait 20 lab_log_has "channel [0-9] down; channel [0-9] and the others carry on"
	check "[one channel] its first login again is rejected" hostile_fake_saw '^LOGIN_REJ' 20
	check "[one channel] the retry is accepted" hostile_fake_saw '^ACCEPT conn=3' 30
	check "[one channel] kernel log: channel back" lab_wait 20 lab_log_has "channel [0-9] back"
	wait $MC_PID
	lab_note "background: $(cat $MC_ERR.count 2>/dev/null)"
	check "[one channel] reads kept working, rport stayed running" mc_reads_clean
	wait $trig
	lab_note "trigger: sg_raw exit $? $(head -c 200 /tmp/sg_raw.out)"
	check "[one channel] no second MULTICHAN_SINGLE login" \
		test "$(grep -Ec '^LOGIN_REQ .* flags=(0x80|0) ' $FAKE_LOG)" -eq 1
	check "[one channel] re-logins are MULTICHAN_MULTI" \
		test "$(grep -Ec '^LOGIN_REQ .* flags=(0x81|0x1) ' $FAKE_LOG)" -ge 3
	check "[one channel] both channels carry commands again" mc_both_carry
	check "[one channel] the LUN reads correctly" hostile_pattern_ok 2048
else
	fail "[one channel] login with 2 channels"
fi

# 2. Every channel drops; the reconnect gets one back, the other later.
if [ -n "$HOSTILE_HOST" ]; then
	lab_log_mark
	hostile_fake_stop
	check "[partial reconnect] the rport is blocked once every channel is gone" \
		lab_wait 30 grep -qx blocked /sys/class/srp_remote_ports/port-$HOSTILE_HOST:1/state
	hostile_fake_start ok -J 2
	check "[partial reconnect] the rport runs again" lab_wait 60 hostile_rport_running
	check "[partial reconnect] kernel log: 1 of 2 channels" \
		lab_wait 10 lab_log_has "reconnected 1 of 2 channels"
	check "[partial reconnect] the second channel's login was rejected" \
		hostile_fake_saw '^LOGIN_REJ'
	check "[partial reconnect] I/O works with one channel" hostile_usable
	check "[partial reconnect] the missing channel comes back" \
		lab_wait 30 lab_log_has "channel 1 back"
	check "[partial reconnect] the target accepted it" hostile_fake_saw '^ACCEPT conn=2'
	check "[partial reconnect] both channels carry commands again" mc_both_carry
	check "[partial reconnect] the LUN reads correctly" hostile_pattern_ok 2048
	check "logout" hostile_logout
fi
HOSTILE_EXTRA=

check "no SRP hosts at the end" hostile_no_hosts
check "ib_srp unloads" lab_unload ib_srp
