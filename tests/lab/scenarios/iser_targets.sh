# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Two iSCSI targets behind the same iSER portal: discovery lists both,
# one session to each at once, data on both, logout, unload.
#
# lab-drivers: ours intree
source /lab/lib-iser.sh

lab_net_up
iser_target2_up
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "discovery on $IP0 lists both targets" sh -c \
	"iscsiadm -m discovery -t st -p $IP0:3260 -I iser > /tmp/st.out &&
	 grep -q '$ISER_IQN\$' /tmp/st.out && grep -q '$ISER_IQN2\$' /tmp/st.out"
check "login to $ISER_IQN" iscsiadm -m node -T $ISER_IQN -p $IP0:3260 -I iser --login
check "login to $ISER_IQN2" iscsiadm -m node -T $ISER_IQN2 -p $IP0:3260 -I iser --login
lab_wait 60 _iser_tdisks_ge $ISER_IQN 2
lab_wait 60 _iser_tdisks_ge $ISER_IQN2 1
d1=$(iser_target_disks $ISER_IQN | head -1)
d2=$(iser_target_disks $ISER_IQN2 | head -1)
check "a disk on each target ($d1, $d2)" test -n "$d1" -a -n "$d2"
lab_fio_verify "$d1" --size=8m --runtime=30 &
p1=$!
check "fio verify on $ISER_IQN2 ($d2) while $ISER_IQN is busy" lab_fio_verify "$d2" --size=8m
iser_check_bg "fio verify on $ISER_IQN ($d1)" $p1
check "logout all" iser_logout_all
check "no iser session left" iser_no_session
check "ib_iser unloads after logout" iser_unload
