# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER against a second target implementation, tgt (lib-tgt.sh), on
# soft-RoCE with initiator and target on different rxe devices, the
# packets crossing a veth (cuttable path 0, lib-path.sh), as a user would
# set it up (issue 40): SendTargets over iSER, login, ext4 with a sha256
# check, fio verify (4 KiB randrw at QD 16 and 1 MiB at QD 8, 15 s each),
# logout, login again, fio verify 8 s, logout. Then again with the path
# delivering packets out of order, as the issue's veth pair did (no
# receive steering, lab_path_any_rx_cpu): login, ext4, the two fio runs,
# logout. Between the two, in --long, a path cut with recovery (tgt_cut,
# below; 29 to 41 s of guest time, boots 20261206-053550 and -053925,
# more than the test command's budget has room for). TGT_ROUNDS times (1
# in the test command, 5 in --long). Then as many
# times over soft-iWARP (issues 35 and 40): the same tgt over siw devices
# on a veth pair of their own (path 2, lab_path_siw_up), with the same
# judgement: SendTargets, login, ext4 with sha256, fio verify 4 KiB QD16
# and 1 MiB QD8 (5 s each), logout, login again, logout. Unload.
# TGT_PHASES (colons between; inorder:reordered:siw by default, the cut
# too in --long) runs some of the phases alone, e.g. LAB_ENV=TGT_PHASES=cut
# for the path cut (tests/lab/run); the manifest counts the default.
#
# A stall is a failure even when the data comes back right: in order, no
# I/O may take longer than TGT_MAX_CLAT_MS (5 s, the issue's bound; the
# in-tree driver's longest was 751 ms in the issue's runs, 1.2 s here).
# Out of order, soft-RoCE's own retransmissions take seconds: with the
# in-tree driver the longest 1 MiB I/O took 5615 ms (boot
# 20261205-164716; rxe's requester ignores a second NAK during a retry and
# waits for its retransmission timer), so the latency is printed there,
# not judged, and the stall this scenario is about is judged by its
# cause. In both phases no connection may fail (the scenario causes
# none), and soft-RoCE may never refuse a fast registration of an MR that
# is still valid ("not free"). On main 037ca47 ours stalled about 80 s
# in most runs with reordered packets, each stall starting with that line
# and ending in a session reset by the SCSI error handler (boot
# 20261205-164337).
#
# lab-drivers: ours intree
# lab-boot: rogue
# lab-timeout: 1500
# lab-long: TGT_ROUNDS=5 TGT_PHASES=inorder:cut:reordered:siw
# lab-needs: siw
source /lab/lib-iser.sh
source /lab/lib-path.sh
source /lab/lib-tgt.sh

TGT_ROUNDS=${TGT_ROUNDS:-1}
TGT_PHASES=${TGT_PHASES:-inorder:reordered:siw}
TGT_MAX_CLAT_MS=5000
# The path cut's bounds (tgt_cut).
TGT_CUT_FAIL=20		# s from the cut to the connection's failure
TGT_CUT_HOLD=3		# s the cut lasts after that
TGT_CUT_BACK=30		# s from the restore to the session's return
# The iser_* helpers name the target by ISER_IQN.
ISER_IQN=$TGT_IQN
ip=${PATH_IPT[0]}

# tgt_fio_check WHAT DISK SECS [fio args]: a verified fio job of SECS
# seconds; checks that it verified clean and, unless TGT_CLAT_JUDGED is
# 0, that its longest I/O took at most TGT_MAX_CLAT_MS.
tgt_fio_check() {
	local what=$1 disk=$2 secs=$3 json=/tmp/tgt-fio.json max
	shift 3
	check "$what: fio verify on $disk" \
		fio --name=tgt --filename=/dev/$disk --direct=1 --ioengine=libaio \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--verify_backlog=256 --time_based --runtime=$secs \
		--output-format=json --output=$json "$@"
	max=$(tgt_fio_max_clat $json)
	lab_note "$what: $(jq -r '.jobs[0] |
		"read \(.read.bw / 1024 | floor) MiB/s, mean \(.read.clat_ns.mean / 1e6 | floor) ms;" +
		" write \(.write.bw / 1024 | floor) MiB/s, mean \(.write.clat_ns.mean / 1e6 | floor) ms"' $json)"
	if [ "${TGT_CLAT_JUDGED:-1}" = 0 ]; then
		lab_note "$what: longest I/O ${max:-?} ms (not judged)"
		return 0
	fi
	check "$what: longest I/O ${max:-?} ms <= $TGT_MAX_CLAT_MS ms" \
		test "${max:-999999}" -le $TGT_MAX_CLAT_MS
}

# tgt_log_checks WHAT: no connection failed, no registration was refused
# since the last mark; the explanation of each refusal (ours).
tgt_log_checks() {
	check "$1: no connection error" lab_log_lacks_context 'detected conn error'
	check "$1: soft-RoCE registered no MR that was still valid" \
		lab_log_lacks_context 'rxe_reg_fast_mr: .* not free' ||
		[ "$DRIVER" != ours ] || tgt_not_free_explain
}

# tgt_not_free_explain: for each "not free" line, what ours did with that
# key: the command sends that advertised it as their rkey, and the PDUs
# that answered them (ib_iser tracepoints). A key last sent by a command
# still in flight means soft-RoCE executed that command's registration a
# second time; one sent by a command answered long before, that ours
# registered an MR it had not invalidated.
tgt_not_free_explain() {
	local tr=/sys/kernel/tracing k itt
	for k in $(lab_log_since | sed -n 's/.*mr->lkey = \(0x[0-9a-f]*\) not free.*/\1/p' | sort -u); do
		lab_log_since | grep -m1 "lkey = $k not free"
		grep "rkey=$k\$" $tr/trace | tail -2
		for itt in $(grep "rkey=$k\$" $tr/trace | tail -2 | sed -n 's/.* itt=\(0x[0-9a-f]*\) .*/\1/p'); do
			grep "iser_rx_pdu:.* itt=$itt " $tr/trace | tail -2
		done
	done
}

# tgt_discovery_state: after a failed SendTargets, what is left of it
# (printed): the kernel's sessions and their states, tgt's connections
# and QPs, ib_iser's and iscsid's last words.
tgt_discovery_state() {
	local s
	for s in /sys/class/iscsi_session/session*; do
		[ -e "$s" ] && echo "${s##*/}: $(cat $s/state 2>/dev/null) $(cat $s/targetname 2>/dev/null)"
	done
	rdma resource show qp | grep -E 'rdma_cm|tgtd'
	tgt_state
	lab_log_since | grep -E 'ib_iser|iscsi|connection[0-9]' | tail -20
}

# tgt_discover IP: iser_discover with iscsiadm's own log (-d 4, each line
# timed) kept in /tmp/tgt-disc.log, printed when it fails.
tgt_discover() {
	local rc
	${TGT_DISC_CPU:+taskset -c $TGT_DISC_CPU} iscsiadm -d 4 -m discovery -t st -p "$1:$ISER_PORT" -I iser 2>&1 |
		while IFS= read -r line; do echo "${EPOCHREALTIME} $line"; done > /tmp/tgt-disc.log
	grep -q " $ISER_IQN\$" /tmp/tgt-disc.log && ! grep -q 'timed out' /tmp/tgt-disc.log
	rc=$?
	[ $rc = 0 ] || cat /tmp/tgt-disc.log
	return $rc
}

# tgt_burn_start N / tgt_burn_stop: N busy loops in the guest (a loaded
# host, TGT_BURN), for reproducing what a loaded CI host does.
tgt_burn_start() {
	local i
	TGT_BURN_PIDS=
	for ((i = 0; i < $1; i++)); do
		sh -c 'while :; do :; done' &
		TGT_BURN_PIDS+=" $!"
	done
}
tgt_burn_stop() {
	[ -n "${TGT_BURN_PIDS:-}" ] || return 0
	kill $TGT_BURN_PIDS
	wait $TGT_BURN_PIDS 2>/dev/null
	TGT_BURN_PIDS=
}

# tgt_discover_state_full: tgt_discovery_state, then the whole kernel
# log since the mark and ib_iser's trace.
tgt_discover_state_full() {
	tgt_discovery_state
	echo "--- kernel log since the mark"
	lab_log_since | tail -60
	echo "--- ib_iser trace"
	tail -40 /sys/kernel/tracing/trace
	echo "--- iscsiadm -m session -P3"
	iscsiadm -m session -P3 2>&1 | head -60
	echo "--- tgtd log"
	tail -30 $TGT_LOG
}

# tgt_discfail HOW: a SendTargets that fails (diagnosis, TGT_PHASES=discfail):
# the rogue target (lib-rogue-iser.sh) logs the discovery session in and
# never answers its Text request. HOW "silent": iscsiadm waits
# TGT_DISCFAIL_TMO s for the answer, reconnects TGT_DISCFAIL_REOPEN - 1
# times and gives up. HOW "close": once the Text request has arrived the
# target goes away (its connection with it), as tgt closes a connection
# on a PDU it refuses. HOW "login": the target never answers the login
# request (rogue-iser login-silent), so the session is created and bound
# and never gets its negotiated parameters. What iscsiadm did and what is
# left in the kernel is printed.
tgt_discfail() {
	local s pid t0 mode=ok
	[ "$1" = login ] && mode=login-silent
	rogue_start $mode || return 1
	iscsiadm -m discoverydb -t st -p $IP0:$ROGUE_PORT -I iser -o new >/dev/null
	iscsiadm -m discoverydb -t st -p $IP0:$ROGUE_PORT -I iser -o update \
		-n discovery.sendtargets.timeo.active_timeout -v ${TGT_DISCFAIL_TMO:-3}
	iscsiadm -m discoverydb -t st -p $IP0:$ROGUE_PORT -I iser -o update \
		-n discovery.sendtargets.reopen_max -v ${TGT_DISCFAIL_REOPEN:-2}
	[ "$1" = close ] && iscsiadm -m discoverydb -t st -p $IP0:$ROGUE_PORT -I iser -o update \
		-n discovery.sendtargets.timeo.active_timeout -v 30
	lab_log_mark
	t0=$EPOCHREALTIME
	iscsiadm -d 4 -m discoverydb -t st -p $IP0:$ROGUE_PORT -I iser --discover 2>&1 |
		while IFS= read -r line; do echo "${EPOCHREALTIME} $line"; done > /tmp/tgt-discfail.log &
	pid=$!
	if [ "$1" = close ]; then
		lab_target_saw 'unexpected opcode 0x4' 30
		lab_note "discfail $1: Text request seen $(tgt_ms_since $t0) ms after the start; stopping the target"
		lab_target_stop
	fi
	lab_wait 120 sh -c "! kill -0 $pid 2>/dev/null"
	wait $pid
	lab_note "discfail $1: iscsiadm ended $(tgt_ms_since $t0) ms after the start"
	grep -Ev 'in (kread|nl_read|nlpayload_read|kwritev|__kipc_call)|set operational parameter|sysfs_attr_get_value' /tmp/tgt-discfail.log | tail -40
	echo "--- sessions"
	for s in /sys/class/iscsi_session/session*; do
		[ -e "$s" ] && echo "${s##*/}: $(cat $s/state 2>/dev/null) $(cat $s/targetname 2>/dev/null) conns: $(ls -d $s/device/connection* 2>/dev/null)"
	done
	iscsiadm -m session -P3 2>&1 | head -40
	echo "--- rogue"
	tail -8 $ROGUE_LOG
	echo "--- kernel log"
	lab_log_since | tail -30
	iscsiadm -m discoverydb -t st -p $IP0:$ROGUE_PORT -I iser -o delete >/dev/null
	rogue_logout
}

# tgt_phase NAME: NAME is one of TGT_PHASES.
tgt_phase() { [[ :$TGT_PHASES: == *:$1:* ]]; }

# tgt_sess_up / tgt_sess_failed: the session of the path cut (TGT_SESS)
# is logged in / is there and not logged in.
tgt_sess_state() { cat /sys/class/iscsi_session/$TGT_SESS/state 2>/dev/null; }
tgt_sess_up() { [ "$(tgt_sess_state)" = LOGGED_IN ]; }
tgt_sess_failed() {
	local s
	s=$(tgt_sess_state)
	[ -n "$s" ] && [ "$s" != LOGGED_IN ]
}

# tgt_ms_since T: milliseconds from the $EPOCHREALTIME T to now.
tgt_ms_since() {
	local now=${EPOCHREALTIME/./} t=${1/./}
	echo $(((now - t) / 1000))
}

# tgt_wait_ms SECS COND: poll COND every 0.1 s for SECS seconds; prints
# the milliseconds it took to hold (from the call) and succeeds, or fails.
tgt_wait_ms() {
	local t0=$EPOCHREALTIME end=$((SECONDS + $1))
	until $2; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
	tgt_ms_since $t0
}

# tgt_fio_loop_start DISK: verified fio jobs on DISK (4 KiB randrw QD16,
# 5 s each), one after another in the background until
# tgt_fio_loop_stop, each job's JSON report in /tmp/tgt-loop-N.json; ends
# at the first job that fails. For I/O that lasts exactly as long as the
# cut and the recovery, whatever they take.
tgt_fio_loop_start() {
	rm -f /tmp/tgt-loop.stop /tmp/tgt-loop-*.json
	(
		n=0
		while [ ! -e /tmp/tgt-loop.stop ]; do
			n=$((n + 1))
			fio --name=tgtcut --filename=/dev/$1 --direct=1 \
				--ioengine=libaio --rw=randrw --bs=4k --iodepth=16 \
				--size=64m --verify=crc32c --verify_fatal=1 \
				--do_verify=1 --verify_backlog=256 --time_based \
				--runtime=5 --output-format=json \
				--output=/tmp/tgt-loop-$n.json || exit
		done
		[ $n -gt 0 ]
	) &
	TGT_FIO_LOOP=$!
}

# tgt_fio_loop_stop: let the current job end; 0 when every job verified
# clean.
tgt_fio_loop_stop() {
	touch /tmp/tgt-loop.stop
	wait $TGT_FIO_LOOP
}

# tgt_fio_loop_max_lat: the longest I/O of the loop's jobs, submission to
# completion, in ms.
tgt_fio_loop_max_lat() {
	jq -s '[.[].jobs[] | .read.lat_ns.max, .write.lat_ns.max] | max / 1000000 | floor' \
		/tmp/tgt-loop-*.json
}

# tgt_cut WHAT: a path cut with recovery (issue 40). One session on path
# 0, NOP-Out every 5 s with a 5 s timeout (open-iscsi's defaults, set
# here so that the bounds below hold whatever the image's iscsid.conf
# says), replacement timeout 120 s; verified fio jobs one after another
# (tgt_fio_loop_start). Once the disk has requests in flight, path 0
# drops every RoCE packet where it arrives (lab_path_cut) until the
# connection has failed and TGT_CUT_HOLD s more, so that iscsid's first
# reconnection meets the cut too; then the packets flow again. Bounds:
#  - the connection fails within TGT_CUT_FAIL (20) s of the cut: ours
#    through its send queue watchdog (within 5 s of the last
#    completion), the in-tree driver through
#    libiscsi's NOP-Out (tgt's NOP-Ins keep it quiet until the cut; at
#    most 5 s to the ping, 5 s to its timeout), or on 6.12 soft-RoCE,
#    which may fail the QPs itself first (lab_rxe_fails_cut_qps; in
#    boot 20261206-061544 ours' watchdog came first, 6.9 s after the
#    cut);
#  - the session is logged in again within TGT_CUT_BACK (30) s of the
#    restore (iser_flap's bound against LIO);
#  - no I/O takes longer than the cut's stall (from the cut to the
#    session's return) plus TGT_MAX_CLAT_MS: what the cut held completes
#    after the return as quickly as any I/O does in order;
#  - fio verifies clean; no connection error before the cut or after the
#    return (the one between is the cut's), no registration refused.
tgt_cut() {
	local n=$1 disk d0 t_cut ms_fail ms_back stall max rc mark kv
	# the cut fails the connection: NOP-Out timeouts, the watchdog
	lab_provokes iscsi-conn sq-stall wc-error
	for kv in 'node.conn[0].timeo.noop_out_interval=5' \
		'node.conn[0].timeo.noop_out_timeout=5' \
		node.session.timeo.replacement_timeout=120; do
		iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o update \
			-n "${kv%=*}" -v "${kv#*=}" >/dev/null
	done
	lab_log_mark
	mark=$LAB_LOG_MARK
	check "$n: login over iSER" iser_login $ip || return 1
	check "$n: session shows the disk" iser_wait_disks $ip 1 || return 1
	TGT_SESS=$(iser_session $ip)
	disk=$(iser_disks $ip | head -1)
	tgt_fio_loop_start $disk
	check "$n: fio's I/O runs on $disk" lab_disk_moves $disk 30
	lab_wait 10 lab_disk_busy $disk
	check "$n: no connection error before the cut" \
		lab_log_lacks_context 'detected conn error'
	d0=$(lab_path_dropped)
	t_cut=$EPOCHREALTIME
	lab_path_cut 0
	lab_note "$n: path 0 cut, $TGT_SESS on $disk ($(cat /sys/block/$disk/inflight | tr -s ' ') in flight)"
	if ms_fail=$(tgt_wait_ms $TGT_CUT_FAIL tgt_sess_failed); then
		pass "$n: the connection fails $ms_fail ms after the cut (<= $TGT_CUT_FAIL s)"
	else
		fail "$n: the connection fails within $TGT_CUT_FAIL s of the cut" \
			"$TGT_SESS still $(tgt_sess_state)"
	fi
	sleep $TGT_CUT_HOLD
	check "$n: RoCE packets of path 0 dropped" \
		test "$(lab_path_dropped)" -gt "$d0"
	lab_path_restore 0
	if ms_back=$(tgt_wait_ms $TGT_CUT_BACK tgt_sess_up); then
		pass "$n: session logged in again $ms_back ms after the restore (<= $TGT_CUT_BACK s)"
	else
		fail "$n: session logged in again within $TGT_CUT_BACK s of the restore" \
			"$TGT_SESS $(tgt_sess_state)"
	fi
	stall=$(tgt_ms_since $t_cut)
	lab_log_mark
	check "$n: I/O completes again on $disk" lab_disk_moves $disk 20
	tgt_fio_loop_stop
	rc=$?
	check "$n: fio verify through the cut (rc $rc)" test $rc -eq 0
	max=$(tgt_fio_loop_max_lat)
	check "$n: longest I/O ${max:-?} ms <= $stall ms stalled + $TGT_MAX_CLAT_MS ms" \
		test "${max:-999999}" -le $((stall + TGT_MAX_CLAT_MS))
	check "$n: logout" iser_logout $ip
	# what tgt still holds of the session (printed)
	tgtadm --lld iser --op show --mode target | grep -E 'I_T nexus|Connection|IP Address|Initiator'
	check "$n: no connection error after the return" \
		lab_log_lacks_context 'detected conn error'
	LAB_LOG_MARK=$mark
	check "$n: soft-RoCE registered no MR that was still valid" \
		lab_log_lacks_context 'rxe_reg_fast_mr: .* not free' ||
		[ "$DRIVER" != ours ] || tgt_not_free_explain
}

# tgt_siw_session DISK: what the soft-iWARP session negotiated and what
# the disk's queue takes (printed, not judged).
tgt_siw_session() {
	iscsiadm -m session -P2 | grep -E 'MaxBurstLength|FirstBurstLength|MaxRecvDataSegmentLength|ImmediateData|InitialR2T' | sort | uniq -c
	echo "$1: max_sectors_kb $(cat /sys/block/$1/queue/max_sectors_kb)," \
		"max_segments $(cat /sys/block/$1/queue/max_segments)," \
		"nr_requests $(cat /sys/block/$1/queue/nr_requests)," \
		"queue_depth $(cat /sys/block/$1/device/queue_depth)"
	rdma resource show qp link ${PATH_SIWI[2]}/1 -dd
	rdma resource show qp link ${PATH_SIWT[2]}/1 -dd
}

# tgt_siw_net WHAT: what soft-iWARP's TCP did (printed, not judged): the
# guest's TCP retransmissions and timeouts, the receive backlogs' drops,
# and path 2's sockets.
tgt_siw_net() {
	echo "$1: $(nstat -asz TcpRetransSegs TcpExtTCPTimeouts TcpExtTCPLossProbes \
		TcpExtTCPBacklogDrop TcpExtTCPZeroWindowDrop TcpExtTCPRcvQDrop |
		awk '!/^#/ { printf "%s=%s ", $1, $2 }')softnet_drops=$(awk '{ d += strtonum("0x" $2) } END { print d }' /proc/net/softnet_stat)"
	ss -tinH "( dst ${PATH_IPT[2]} or src ${PATH_IPT[2]} )" | head -8
}

# tgt_slow_ios LOG MS: the I/Os of a fio latency log that took over MS
# ms: when they completed (ms into the job), how long, read or write.
tgt_slow_ios() {
	awk -F', *' -v ms="$2" '$2 / 1e6 > ms {
		printf "slow I/O: done at %d ms, %d ms, %s, %d bytes at %d\n",
			$1, $2 / 1e6, $3 == 0 ? "read" : "write", $4, $5 }' "$1" 2>/dev/null | head -20
}

check "cuttable paths up" lab_path_up
# siw.ko comes with the boot (lab-needs), on Debian's kernels; the debug
# kernel has none yet.
siw=0
if ! modinfo siw >/dev/null 2>&1; then
	skip "soft-iWARP" "no siw module for $(uname -r)"
elif check "path 2 on soft-iWARP up" lab_path_siw_up; then
	siw=1
fi
if tgt_phase discfail; then
	source /lab/lib-rogue-iser.sh
	lab_iscsid_up
	check "ib_iser loads" lab_iser_load
	# the target going away fails the discovery's connection
	lab_provokes iscsi-conn
	tgt_discfail silent
	check "after the failed discovery (no answer): no iser session left" iser_no_session
	tgt_discfail close
	check "after the failed discovery (target gone): no iser session left" iser_no_session
	tgt_discfail login
	check "after the failed discovery (login unanswered): no iser session left" iser_no_session
	check "after the failed discoveries: ib_iser unloads" iser_unload
fi
check "tgt serves an iSER target on $ip" tgt_up
lab_iscsid_up
check "ib_iser loads" lab_iser_load
lab_log_mark
if [ "$DRIVER" = ours ]; then
	echo 65536 > /sys/kernel/tracing/buffer_size_kb
	echo 1 > /sys/kernel/tracing/events/ib_iser/iser_cmd_send/enable
	echo 1 > /sys/kernel/tracing/events/ib_iser/iser_rx_pdu/enable
fi
tgt_rxe_counters
# Diagnosis (not in the manifest's count): TGT_DISC_REPEAT discoveries in
# a row, under TGT_BURN busy loops; with TGT_DISC_CPU=N iscsiadm runs on
# CPU N and tgtd on the other one.
tgt_burn_start ${TGT_BURN:-0}
if [ -n "${TGT_DISC_CPU:-}" ]; then
	for t in /proc/$(pgrep -x tgtd)/task/*; do
		taskset -p -c $((1 - TGT_DISC_CPU)) ${t##*/} >/dev/null
	done
fi
for ((i = 1; i <= ${TGT_DISC_REPEAT:-0}; i++)); do
	lab_log_mark
	t0=$EPOCHREALTIME
	if ! check "repeat $i: discovery over iSER on $ip lists tgt" tgt_discover $ip; then
		tgt_discover_state_full
		lab_note "repeat $i: $(tgt_ms_since $t0) ms"
		break
	fi
	lab_note "repeat $i: $(tgt_ms_since $t0) ms"
	# a kernel event that came before the reply iscsiadm waited for
	grep 'expecting event' /tmp/tgt-disc.log
done
tgt_phase inorder || tgt_burn_stop
# what tgtd complained of meanwhile (printed)
[ "${TGT_DISC_REPEAT:-0}" -gt 0 ] && grep -v '^$' $TGT_LOG | sed 's/0x[0-9a-f]*/X/g; s/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn | head -20
for ((r = 1; r <= TGT_ROUNDS; r++)); do
	n="round $r/$TGT_ROUNDS"
	if tgt_phase inorder; then
		check "$n: discovery over iSER on $ip lists tgt" tgt_discover $ip ||
			tgt_discover_state_full
		tgt_burn_stop
		check "$n: login over iSER" iser_login $ip
		check "$n: session shows the disk" iser_wait_disks $ip 1
		disk=$(iser_disks $ip | head -1)
		iscsiadm -m session -P2 | grep -E 'ImmediateData|InitialR2T|MaxRecvDataSegmentLength'
		check "$n: ext4 on $disk: sha256 survives remount" lab_data_check "$disk"
		tgt_fio_check "$n: 4 KiB randrw QD16" "$disk" 15 \
			--rw=randrw --bs=4k --iodepth=16 --size=64m
		tgt_fio_check "$n: 1 MiB randrw QD8" "$disk" 15 \
			--rw=randrw --bs=1m --iodepth=8 --size=128m
		check "$n: logout" iser_logout $ip
		check "$n: login again" iser_login $ip
		check "$n: session shows the disk again" iser_wait_disks $ip 1
		disk=$(iser_disks $ip | head -1)
		tgt_fio_check "$n: after the second login, 4 KiB randrw QD16" "$disk" 8 \
			--rw=randrw --bs=4k --iodepth=16 --size=64m
		check "$n: logout again" iser_logout $ip
		tgt_rxe_counters
		tgt_log_checks "$n"
	fi

	if tgt_phase cut; then
		t0=$SECONDS
		tgt_cut "round $r/$TGT_ROUNDS, path cut"
		lab_note "round $r/$TGT_ROUNDS, path cut: $((SECONDS - t0)) s"
	fi

	# The issue's veth pair: packets arrive out of order now and then and
	# the QPs retransmit (the rxe counters show how often).
	tgt_phase reordered || continue
	n="round $r/$TGT_ROUNDS, reordered"
	lab_log_mark
	check "$n: path 0 delivers out of order" lab_path_any_rx_cpu 0
	check "$n: login over iSER" iser_login $ip
	check "$n: session shows the disk" iser_wait_disks $ip 1
	disk=$(iser_disks $ip | head -1)
	check "$n: ext4 on $disk: sha256 survives remount" lab_data_check "$disk"
	TGT_CLAT_JUDGED=0
	tgt_fio_check "$n: 4 KiB randrw QD16" "$disk" 15 \
		--rw=randrw --bs=4k --iodepth=16 --size=64m
	tgt_fio_check "$n: 1 MiB randrw QD8" "$disk" 15 \
		--rw=randrw --bs=1m --iodepth=8 --size=128m
	TGT_CLAT_JUDGED=1
	check "$n: logout" iser_logout $ip
	tgt_rxe_counters
	tgt_log_checks "$n"
	check "$n: path 0 delivers in order again" lab_path_in_order 0
	lab_log_mark
done

# soft-iWARP: tgt's rdma_cm listener on 3260 serves siwpt2 as well;
# TGT_ROUNDS times.
ipw=${PATH_IPT[2]}
if [ $siw = 1 ] && tgt_phase siw; then
	ibv_devinfo -v -d ${PATH_SIWI[2]} | grep -E 'max_qp_(init_)?rd_atom|max_sge_rd|max_sge:|max_fast_reg|page_size_cap'
fi
for ((r = 1; r <= TGT_ROUNDS && siw; r++)); do
	tgt_phase siw || break
	n="soft-iWARP, round $r/$TGT_ROUNDS"
	t0=$SECONDS
	lab_log_mark
	check "$n: discovery over iSER on $ipw lists tgt" iser_discover $ipw ||
		tgt_discovery_state
	check "$n: login over iSER" iser_login $ipw
	check "$n: session shows the disk" iser_wait_disks $ipw 1
	check "$n: the session's QP is on ${PATH_SIWI[2]}" \
		sh -c "rdma resource show qp link ${PATH_SIWI[2]}/1 | grep -w RC"
	disk=$(iser_disks $ipw | head -1)
	tgt_siw_session $disk
	check "$n: ext4 on $disk: sha256 survives remount" lab_data_check "$disk"
	tgt_siw_net "$n: before fio"
	tgt_fio_check "$n: 4 KiB randrw QD16" "$disk" 5 \
		--rw=randrw --bs=4k --iodepth=16 --size=64m
	tgt_siw_net "$n: after 4 KiB"
	# In-tree on 6.1 took 5061 and 5757 ms here in two boots (under
	# 2.1 s in the two rounds of boot 20261206-053925); unexplained, see
	# docs/lab.md, "Soft-iWARP, path 2": the slow I/Os and the TCP
	# counters are printed.
	tgt_fio_check "$n: 1 MiB randrw QD8" "$disk" 5 \
		--rw=randrw --bs=1m --iodepth=8 --size=128m \
		--write_lat_log=/tmp/tgt-siw --log_avg_msec=0
	tgt_siw_net "$n: after 1 MiB"
	tgt_slow_ios /tmp/tgt-siw_lat.1.log 2000
	check "$n: logout" iser_logout $ipw
	check "$n: login again" iser_login $ipw
	check "$n: session shows the disk again" iser_wait_disks $ipw 1
	check "$n: logout again" iser_logout $ipw
	check "$n: no connection error" lab_log_lacks_context 'detected conn error'
	lab_note "$n: $((SECONDS - t0)) s"
done

echo 0 > /sys/kernel/tracing/events/ib_iser/enable 2>/dev/null
check "no iser session left" iser_no_session
check "ib_iser unloads" iser_unload
# After path cuts (--long) this failed with ours before it kept a
# released connection's cm_id until the CM had finished the disconnect:
# the cut dropped the failed connection's DREQ, destroying the id ended
# its retransmissions, and tgt kept the old connection (its QP in RTS,
# its I_T nexus), which "delete system" waits for (docs/lab.md, "tgt
# kept the cut connection after ours' recovery"; red on main 20007ee with
# TGT_PHASES=cut:reordered TGT_ROUNDS=2, boot 20261206-182442).
check "tgtd stops" tgt_down || tgt_state
