# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tgt, Debian's user-space iSCSI target, as a second iSER target next to
# LIO (sourced after /lab/lib.sh, /lab/lib-iser.sh and /lab/lib-path.sh).
# Its iSER driver sits on librdmacm/libibverbs: it listens with rdma_cm on
# port 3260 of every address, so it serves the cuttable paths' target ends
# (lab_path_up), where initiator and target sit on different rxe devices
# and every packet crosses a veth. A boot that runs it must not have LIO's
# iSER portals on 3260 as well.
#
# What tgt does that LIO does not (issue 40): it negotiates
# ImmediateData=No and InitialR2T=Yes, sends a NOP-In every 5 s, reports a
# power-on unit attention at login, sends no iSER CM reply header, never
# invalidates remotely, and keeps few receives posted, so the initiator's
# SENDs meet RNR NAKs (rxe counter rcvd_rnr_err on the initiator end).
#
#   tgt_up                  tgtd with one target, LUN 1 on a 256 MiB brd disk
#   tgt_down                stop tgtd and free the disk
#   tgt_state               what tgtd holds (for a failed tgt_down)
#   tgt_fio_max_clat JSON   the longest completion in a fio JSON report, ms
#   tgt_rxe_counters        the rxe counters of both ends of path 0

TGT_IQN=iqn.2026-12.org.example.rdma-initiators:tgt
TGT_LOG=/tmp/tgtd.log

# tgt_up: start tgtd and configure its target.
#
# Facts found setting it up (issue 40): "--iser port=N" is refused
# whenever errno happens to be set (tgtd's parser checks a stale errno),
# so iSER stays on 3260 and the TCP portal moves away, to 127.0.0.1:3262;
# its default 1 GiB iSER buffer pool does not register in the lab guest
# (ibv_reg_mr: Cannot allocate memory), 128 MiB is its minimum, and it
# needs "ulimit -l unlimited" to pin it; discovery and login over iSER
# want the initiator allowed by address and by name.
tgt_up() {
	local iqn
	lab_path_up || return 1
	pgrep -x tgtd >/dev/null && return 0
	modprobe brd rd_nr=1 rd_size=262144 || return 1
	lab_wait 10 test -b /dev/ram0 || return 1
	mkdir -p /var/run/tgtd
	(
		ulimit -l unlimited
		exec tgtd -f --iscsi portal=127.0.0.1:3262 --iser pool_sz_mb=128
	) > $TGT_LOG 2>&1 &
	lab_wait 30 tgtadm --lld iser --op show --mode target || {
		cat $TGT_LOG
		return 1
	}
	iqn=$(lab_initiator_iqn)
	tgtadm --lld iser --op new --mode target --tid 1 -T $TGT_IQN &&
	tgtadm --lld iser --op new --mode logicalunit --tid 1 --lun 1 \
		-b /dev/ram0 &&
	tgtadm --lld iser --op bind --mode target --tid 1 \
		--initiator-address ALL &&
	tgtadm --lld iser --op bind --mode target --tid 1 \
		--initiator-name "$iqn" || return 1
	lab_wait 10 sh -c "ss -ltn | grep -q '127.0.0.1:3262'"
}

# tgt_down: stop tgtd (no session may be left) and free its disk.
tgt_down() {
	local pid
	pid=$(pgrep -x tgtd) || return 0
	# As Debian's tgt.service stops it: tgtd ignores SIGTERM while it
	# has targets (seen in the lab), "delete system" ends it.
	tgtadm --op update --mode sys --name State -v offline >/dev/null 2>&1
	tgtadm --lld iser --op delete --mode target --tid 1 --force >/dev/null 2>&1
	tgtadm --op delete --mode system >/dev/null 2>&1
	# the scenario's shell is its parent and never reaps it: a zombie
	# has stopped
	lab_wait 20 sh -c "! grep -qs '^State:[^A-Z]*[A-Y]' /proc/$pid/status" || {
		echo "tgtd ($pid) still runs: $(grep State /proc/$pid/status)"
		return 1
	}
	modprobe -r brd
}

# tgt_state: what tgtd still holds, for a failed tgt_down: its targets
# and their connections, its QPs, the end of its log.
tgt_state() {
	tgtadm --lld iser --op show --mode target 2>&1 | head -30
	rdma resource show qp | grep -w tgtd
	tail -20 $TGT_LOG
}

# tgt_fio_max_clat JSON: the longest I/O completion latency of every job
# in fio's JSON report, in ms (reads and writes alike).
tgt_fio_max_clat() {
	jq '[.jobs[] | .read.clat_ns.max, .write.clat_ns.max] | max / 1000000 | floor' "$1"
}

# tgt_rxe_counters: the rxe counters that show retransmissions, of the
# initiator end (rxepi0) and the target end (rxept0) of path 0.
tgt_rxe_counters() {
	local d c line
	for d in ${PATH_RXEI[0]} ${PATH_RXET[0]}; do
		line="$d:"
		for c in rcvd_rnr_err send_rnr_err completer_retry_err \
			 retry_exceeded_err retry_rnr_exceeded_err \
			 out_of_seq_request duplicate_request rcvd_seq_err \
			 send_err; do
			line+=" $c=$(cat /sys/class/infiniband/$d/ports/1/hw_counters/$c)"
		done
		echo "$line"
	done
}
