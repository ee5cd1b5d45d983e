# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER basics: the iser transport registers, SendTargets discovery and
# login over iSER, ext4 data and a short fio verify on the disk, logout and
# unload.
#
# lab-drivers: ours intree
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "iser transport registered" test -d /sys/class/iscsi_transport/iser
check "discovery over iSER on $IP0" iser_discover $IP0
check "login over iSER on $IP0" iser_login $IP0
check "session shows 2 disks" iser_wait_disks $IP0 2
host=$(iser_host $IP0)
check "host proc_name is iscsi_iser" \
	grep -qx iscsi_iser /sys/class/scsi_host/host$host/proc_name
disk=$(iser_disks $IP0 | head -1)
check "ext4 on $disk: data survives remount" lab_data_check "$disk"
check "fio verify on $disk" lab_fio_verify "$disk" --size=16m
if [ "$DRIVER" = ours ]; then
	iscsiadm -m session -s | sed -n '/iSCSI Extended/,$p'
	check "counters: every registration invalidated" iser_inv_balance
	st=$(ls /sys/kernel/debug/ib_iser/ep*/stats 2>/dev/null | head -1)
	check "debugfs counters readable" grep -q '^regs [1-9]' "$st"
	echo 1 > "$st"
	check "debugfs counters reset" grep -qE '^regs [0-2]$' "$st"
fi
check "logout" iser_logout $IP0
check "no iser session left" sh -c "! iscsiadm -m session 2>/dev/null | grep -q ."
check "ib_iser unloads after logout" iser_unload
