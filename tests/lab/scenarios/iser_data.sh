# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER data path: ext4 checksums, fio verify over queue depths 1..64,
# 1 MiB sequential and 4 MiB writes, the queue's max segment size, large
# I/O from unaligned buffers, unsolicited counters sane, unload.
#
# lab-drivers: ours intree
source /lab/lib-iser.sh

iser_one_session
disk=$(iser_disks $IP0 | head -1)
check "ext4 on $disk: data survives remount" lab_data_check "$disk"
for qd in 1 4 16 64; do
	check "fio verify randrw 4k QD$qd" lab_fio_verify "$disk" --iodepth=$qd --size=16m
done
check "fio verify randrw 4k..64k mixed sizes QD32" \
	lab_fio_verify "$disk" --bsrange=4k-64k --iodepth=32 --size=32m
check "fio verify 1 MiB sequential write+read" \
	lab_fio_verify "$disk" --rw=write --bs=1m --iodepth=8 --size=64m
check "fio verify 4 MiB writes" \
	lab_fio_verify "$disk" --rw=randwrite --bs=4m --iodepth=4 --size=64m
check "dd 4 MiB direct writes and read back" bash -c "
	dd if=/dev/urandom of=/tmp/pat bs=4M count=4 status=none &&
	dd if=/tmp/pat of=/dev/$disk bs=4M oflag=direct status=none &&
	cmp <(dd if=/dev/$disk bs=4M count=4 iflag=direct status=none) /tmp/pat"
if [ "$DRIVER" = ours ]; then
	check "$disk: queue/max_segment_size is the HCA's (not 64 KiB)" lab_max_seg_check "$disk"
else
	# The in-tree ib_iser never sets it: on 6.1 the virt boundary lifted
	# it, on trixie's 6.12 the queue keeps SCSI's 64 KiB next to a 4 KiB
	# virt boundary (seen 2026-12-03), the pair issue 18 is about. Shown,
	# not checked: it is the in-tree driver's, not the lab's.
	lab_note "in-tree ib_iser: $(lab_max_seg_check "$disk")"
fi
check "fio verify 512k-8m from buffers and offsets 512 past a page" lab_fio_unaligned "$disk"
check "logout" iser_logout $IP0

# Unsolicited Data-Out: InitialR2T=No on both sides, so every write sends
# up to FirstBurstLength as immediate data plus Data-Out PDUs.
param=$CFS/iscsi/$ISER_IQN/tpgt_1/param
check "target accepts InitialR2T=No" sh -c "echo No > $param/InitialR2T"
iscsiadm -m node -T $ISER_IQN -p $IP0:3260 -I iser \
	-o update -n node.session.iscsi.InitialR2T -v No >/dev/null
check "login with InitialR2T=No" iser_login $IP0
check "session shows 2 disks" iser_wait_disks $IP0 2
disk=$(iser_disks $IP0 | head -1)
check "negotiated InitialR2T=No" sh -c \
	"grep -qx 0 /sys/class/iscsi_session/$(iser_session $IP0)/initial_r2t"
check "fio verify 4k..256k writes with unsolicited Data-Out" \
	lab_fio_verify "$disk" --rw=randwrite --bsrange=4k-256k --iodepth=16 --size=32m
check "logout" iser_logout $IP0
echo Yes > $param/InitialR2T
iscsiadm -m node -T $ISER_IQN -p $IP0:3260 -I iser \
	-o update -n node.session.iscsi.InitialR2T -v Yes >/dev/null
check "ib_iser unloads after logout" iser_unload
