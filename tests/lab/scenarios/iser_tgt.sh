# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER against a second target implementation, tgt (lib-tgt.sh), on
# soft-RoCE with initiator and target on different rxe devices, the
# packets crossing a veth (cuttable path 0, lib-path.sh), as a user would
# set it up (issue 40): SendTargets over iSER, login, ext4 with a sha256
# check, fio verify (4 KiB randrw at QD 16 and 1 MiB at QD 8, 15 s each),
# logout, login again, fio verify 8 s, logout; TGT_ROUNDS times (1 in the
# test command, 5 in --long); unload.
#
# A stall is a failure even when the data comes back right: no I/O may
# take longer than TGT_MAX_CLAT_MS (5 s, the bound; the in-tree
# driver's longest was 751 ms in the runs, and a connection
# failure that recovers takes longer), no connection may fail (the
# scenario causes none), and soft-RoCE may never refuse a fast
# registration of an MR that is still valid ("not free"). On main 037ca47
# ours stalled about 80 s in most runs, each stall starting with that
# line and ending in a session reset by the SCSI error handler.
#
# lab-drivers: ours intree
# lab-boot: tgt
# lab-timeout: 1500
# lab-long: TGT_ROUNDS=5
source /lab/lib-iser.sh
source /lab/lib-path.sh
source /lab/lib-tgt.sh

TGT_ROUNDS=${TGT_ROUNDS:-1}
TGT_MAX_CLAT_MS=5000
# The iser_* helpers name the target by ISER_IQN.
ISER_IQN=$TGT_IQN
ip=${PATH_IPT[0]}

# tgt_fio_check WHAT DISK SECS [fio args]: a verified fio job of SECS
# seconds; checks that it verified clean and that its longest I/O took at
# most TGT_MAX_CLAT_MS.
tgt_fio_check() {
	local what=$1 disk=$2 secs=$3 json=/tmp/tgt-fio.json max
	shift 3
	check "$what: fio verify on $disk" \
		fio --name=tgt --filename=/dev/$disk --direct=1 --ioengine=libaio \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--verify_backlog=256 --time_based --runtime=$secs \
		--output-format=json --output=$json "$@"
	max=$(tgt_fio_max_clat $json)
	check "$what: longest I/O ${max:-?} ms <= $TGT_MAX_CLAT_MS ms" \
		test "${max:-999999}" -le $TGT_MAX_CLAT_MS
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

check "cuttable paths up" lab_path_up
# As the veth pair: no receive steering, so packets arrive out of
# order now and then and the QPs retransmit (rxe counters below).
check "path 0 delivers out of order" lab_path_any_rx_cpu 0
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
for ((r = 1; r <= TGT_ROUNDS; r++)); do
	n="round $r/$TGT_ROUNDS"
	check "$n: discovery over iSER on $ip lists tgt" iser_discover $ip
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
	check "$n: no connection error" lab_log_lacks_context 'detected conn error'
	check "$n: soft-RoCE registered no MR that was still valid" \
		lab_log_lacks_context 'rxe_reg_fast_mr: .* not free' ||
		[ "$DRIVER" != ours ] || tgt_not_free_explain
done
echo 0 > /sys/kernel/tracing/events/ib_iser/enable 2>/dev/null
check "no iser session left" iser_no_session
check "ib_iser unloads" iser_unload
check "tgtd stops" tgt_down
