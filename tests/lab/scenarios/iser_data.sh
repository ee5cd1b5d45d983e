# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER data path: ext4 checksums, fio verify over queue depths 1..64,
# 1 MiB sequential and 4 MiB writes, unsolicited counters sane, unload.
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "login over iSER on $IP0" iser_login $IP0
check "session shows 2 disks" iser_wait_disks $IP0 2
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
check "dd 4 MiB direct writes and read back" sh -c "
	dd if=/dev/urandom of=/tmp/pat bs=4M count=4 status=none &&
	dd if=/tmp/pat of=/dev/$disk bs=4M oflag=direct status=none &&
	cmp <(dd if=/dev/$disk bs=4M count=4 iflag=direct status=none) /tmp/pat"
check "logout" iser_logout $IP0
check "ib_iser unloads after logout" iser_unload
