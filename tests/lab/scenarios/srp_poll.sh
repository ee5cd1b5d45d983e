# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Polled SRP queues (poll_queues, issue 21): a login with ch_count=1 and
# poll_queues=2 has one interrupt-driven channel and two polled ones, each
# the HCTX_TYPE_POLL hardware queue of its disks, whose CQ only a poller
# reaps.
#
# 1. The login: the host's poll_queues and ch_count attributes, rdi-status
#    (table and JSON), the disk's queue/io_poll and its three hardware
#    queues; the polled channels answer their keep-alive probes while idle
#    (the watch reaps their CQ itself), so nothing fails.
# 2. fio verify with io_uring --hipri: its commands complete on the polled
#    channels (their cmds_done counters), reaped by fio's polling.
# 3. The target port away and back under hipri fio verify: the rport
#    reconnects every channel, the polled ones too, fio sees no error.
# 4. ABORT TASK on a polled channel: hipri fio verify on a LUN whose
#    backing device stalls, with a 1 s command timeout; the abort's
#    response arrives on a polled CQ and error handling reaps it.
# 5. Removal (rport delete) under hipri fio: the host goes, fio ends, the
#    module unloads.
#
# lab-drivers: ours
# lab-provokes: scsi-eh srp-reconnect srp-path (a polled channel failed and recovered on purpose)
. /lab/lib-srp.sh
. /lab/lib-tools.sh

# poll_fio DEV SECS OUT [FIO ARGS]: verified fio on DEV with io_uring
# polled I/O (IORING_SETUP_IOPOLL), for SECS seconds, capped at SECS + 60.
poll_fio() {
	local dev=/dev/${1#/dev/} secs=$2 out=$3
	shift 3
	timeout $((secs + 60)) fio --name=hipri --filename="$dev" --direct=1 \
		--ioengine=io_uring --hipri --rw=randrw --bs=4k --iodepth=16 \
		--size=16m --time_based --runtime="$secs" --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --output-format=json --output="$out" "$@"
}

# What the target port's absence holds (section 3: the port away for 3 s,
# the rport's reconnect every reconnect_delay, 2 s) and what the stalls of
# section 4 hold (2 s each, a 1 s command timeout, ABORT TASK and the
# retry, which may meet the next stall), plus the lab's bound for the I/O
# itself (LAB_IO_BOUND, lib.sh): 30 s each, the bounds of the fio that
# runs through them.
: "${POLL_REC_IO_BOUND:=30}"
: "${POLL_ABORT_IO_BOUND:=30}"

# poll_ch_stat HOST CH NAME: a counter of channel CH's debugfs file.
poll_ch_stat() {
	awk -v n="$3" '$1 == n { print $2 }' /sys/kernel/debug/ib_srp/host$1/ch$2
}

# poll_done HOST: commands completed on the polled channels 1 and 2.
poll_done() {
	echo $(($(poll_ch_stat $1 1 cmds_done) + $(poll_ch_stat $1 2 cmds_done)))
}

# poll_chs HOST NAME VALUE: NAME of channels 0, 1 and 2, concatenated, is
# VALUE.
poll_chs() {
	[ "$(poll_ch_stat $1 0 $2)$(poll_ch_stat $1 1 $2)$(poll_ch_stat $1 2 $2)" = "$3" ]
}

# poll_probes HOST CH N: channel CH sent at least N keep-alive probes.
poll_probes() {
	[ "$(poll_ch_stat $1 $2 keepalive_probes)" -ge "$3" ]
}

lab_srpt_up 2
lab_multipathd_down
check "slow LUN (iblock on a suspendable dm map)" srp_slow_up
check "ib_srp loads" lab_srp_load

# --- 1. the login --------------------------------------------------------
h=$(lab_srp_login 0 ch_count=1,poll_queues=2) && pass "login with poll_queues=2" ||
	fail "login with poll_queues=2"
srp_wait_disks $h 3
hd=/sys/class/scsi_host/host$h
r=/sys/class/srp_remote_ports/port-$h:1
d=$(srp_lun_disk $h 0)
s=$(srp_lun_disk $h $SRP_SLOW_LUN)
check "host attribute poll_queues is 2" grep -qx 2 $hd/poll_queues
check "host attribute ch_count is 1 (the interrupt-driven channel)" grep -qx 1 $hd/ch_count
check "$d polls: queue/io_poll is 1" grep -qx 1 /sys/block/$d/queue/io_poll
check "$d has 3 hardware queues" test "$(ls -d /sys/block/$d/mq/* | wc -l)" -eq 3
check "channels 1 and 2 are polled, channel 0 is not" poll_chs $h polled 011
table=$($RDI_STATUS)
echo "$table"
check "rdi-status: POLL column of host$h is 2" \
	test "$(tools_table_col "$table" host$h POLL)" = 2
check "rdi-status --json: poll_queues 2" \
	sh -c "$RDI_STATUS --json | grep -q '\"poll_queues\": 2'"
# Idle polled channels: nobody polls them but the keep-alive watch, which
# must reap its own probes (keepalive 5 s: a probe every 2.5 s of silence).
# Three probes of channel 2 (the login's, then the watch's) take 5 s; a
# probe left unreaped fails its channel within that time.
lab_log_mark
check "idle polled channel 2 sent 3 keep-alive probes" lab_wait 30 poll_probes $h 2 3
check "no keep-alive failure of an idle polled channel" \
	lab_log_lacks "keep-alive probe unanswered"

# --- 2. polled I/O -------------------------------------------------------
# No merging: each of fio's I/Os is one command, and all of them are
# polled ones, so the polled channels complete at least as many commands
# as fio issued (fio's own count).
echo 2 > /sys/block/$d/queue/nomerges
done0=$(poll_done $h)
poll_fio $d 10 /tmp/poll-fio.out
rc=$?
check "fio io_uring --hipri verify (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/poll-fio.out
done1=$(poll_done $h)
echo 0 > /sys/block/$d/queue/nomerges
issued=$(sed -n '/^{/,$p' /tmp/poll-fio.out |
	jq '[.jobs[] | .read.total_ios + .write.total_ios] | add // 0')
check "hipri fio: longest I/O within the bound" \
	lab_fio_bound /tmp/poll-fio.out "hipri fio on $d"
lab_note "commands completed on the polled channels: $((done1 - done0)); fio issued $issued"
check "the hipri commands completed on the polled channels ($((done1 - done0)) of fio's $issued)" \
	test "$issued" -gt 0 -a $((done1 - done0)) -ge "$issued"

# --- 3. reconnect under polled I/O ---------------------------------------
echo 2 > $r/reconnect_delay
port=$(_lab_rxe_guid_name $RXE0)
tpg=$CFS/srpt/$port/$port
lab_log_mark
poll_fio $d 40 /tmp/poll-rec.out &
fpid=$!
sleep 5
echo 0 > $tpg/enable
check "rport leaves running when the target port goes away" \
	lab_wait 30 sh -c "! grep -qx running $r/state"
sleep 3
echo 1 > $tpg/enable
check "rport running again after the target port returns" \
	lab_wait 60 grep -qx running $r/state
check "all three channels back" lab_wait 30 poll_chs $h connected 111
done0=$(poll_done $h)
wait $fpid
rc=$?
check "hipri fio verify through the reconnect (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/poll-rec.out
check "hipri fio through the reconnect: longest I/O within its bound" \
	lab_fio_bound /tmp/poll-rec.out "hipri fio through the reconnect" POLL_REC_IO_BOUND
check "polled channels carry I/O after the reconnect" test "$(poll_done $h)" -gt "$done0"
check "reconnected" lab_log_has "reconnected"

# --- 4. ABORT TASK on a polled channel -----------------------------------
echo 1 > /sys/block/$s/device/timeout
tmo0=$(($(cat /sys/block/$s/device/iotmo_cnt)))
lab_log_mark
poll_fio $s 30 /tmp/poll-abort.out &
fpid=$!
sleep 3
stalls=0
while [ $stalls -lt 4 ] && kill -0 $fpid 2>/dev/null; do
	dmsetup suspend --noflush $SRP_SLOW_DM
	sleep 2
	dmsetup resume $SRP_SLOW_DM
	stalls=$((stalls + 1))
	sleep 4
done
wait $fpid
rc=$?
tmo=$(($(cat /sys/block/$s/device/iotmo_cnt) - tmo0))
lab_note "$stalls stalls of 2 s, $tmo commands timed out"
check "polled commands timed out ($tmo)" test $tmo -gt 0
check "ABORT TASK went out on a polled channel" lab_log_has "aborting tag .* on channel [12]\$"
check "every abort answered" lab_log_lacks "task management function .*no response"
check "no host reset" lab_log_lacks "host reset: reconnecting"
check "hipri fio verify through the aborts (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/poll-abort.out
check "hipri fio through the aborts: longest I/O within its bound" \
	lab_fio_bound /tmp/poll-abort.out "hipri fio through the aborts" POLL_ABORT_IO_BOUND
echo 30 > /sys/block/$s/device/timeout
check "rport running after the aborts" grep -qx running $r/state

# --- 5. removal under polled I/O -----------------------------------------
timeout 150 fio --name=rm --filename=/dev/$d --direct=1 --ioengine=io_uring \
	--hipri --rw=randrw --bs=4k --iodepth=16 --time_based --runtime=60 \
	--output-format=json --output=/tmp/poll-rm.json &
fpid=$!
sleep 5
echo 1 > $r/delete
check "SCSI host removed under polled I/O" lab_wait 60 test ! -e $hd
check "rport removed" test ! -e $r
wait $fpid
rc=$?
check "fio ended when the disk went (rc=$rc, not the timeout's 124)" test $rc -ne 124
# the removal fails what is left (errors, which fio does not time): none of
# the I/Os that completed waited past the lab's bound (LAB_IO_BOUND, lib.sh)
check "hipri fio up to the removal: longest I/O within the bound" \
	lab_fio_bound /tmp/poll-rm.json "hipri fio up to the removal"
check "no SRP host left" test -z "$(lab_srp_hosts)"
check "slow LUN removed" srp_slow_down
check "ib_srp unloads" lab_unload ib_srp
