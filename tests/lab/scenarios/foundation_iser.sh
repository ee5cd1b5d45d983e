# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Foundation proof of the iSER lab: SendTargets discovery over iSER, login,
# ext4 data survives a remount, logout, unload.
#
# lab-drivers: ours intree
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "discovery over iSER finds the target" \
	sh -c "iscsiadm -m discovery -t st -p $IP0 -I iser | grep -q '$ISER_IQN'"
check "login over iSER" iscsiadm -m node -T $ISER_IQN -p $IP0 -I iser --login
lab_wait 60 sh -c "iscsiadm -m session -P3 | grep -q 'Attached scsi disk'"
disk=$(iscsiadm -m session -P3 | awk '/Attached scsi disk/ {print $4; exit}')
check "session has an attached disk" test -n "$disk"
[ -n "$disk" ] && check "ext4 on $disk: data survives remount" lab_data_check "$disk"
[ -n "$disk" ] && check "fio verify on $disk" lab_fio_verify "$disk" --size=16m
check "logout" iscsiadm -m node -T $ISER_IQN -p $IP0 -I iser --logout
check "ib_iser unloads after logout" lab_unload ib_iser
