# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# RDMA device removal under an iSER session: rxe1 is deleted while a
# session runs over it; the session on rxe0 keeps working, the one on rxe1
# fails over to recovery without hang or splat, logout and unload work.
# It gets a boot of its own: rxe1 is gone afterwards.
#
# lab-drivers: ours intree
# lab-boot: own
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "login on $IP0" iser_login $IP0
check "login on $IP1" iser_login $IP1
check "2 disks on $IP1" iser_wait_disks $IP1 2
d0=$(iser_disks $IP0 | head -1)
s1=$(iser_session $IP1)
check "rdma link delete $RXE1 returns" timeout 120 rdma link delete $RXE1
check "session over $RXE1 left LOGGED_IN" lab_wait 30 sh -c \
	"! grep -q LOGGED_IN /sys/class/iscsi_session/$s1/state"
check "I/O on $RXE0 unaffected" lab_fio_verify "$d0" --size=8m
check "logout all" iser_logout_all
check "no iser session left" lab_wait 60 sh -c "! iscsiadm -m session 2>/dev/null | grep -q ."
check "ib_iser unloads after device removal" iser_unload
