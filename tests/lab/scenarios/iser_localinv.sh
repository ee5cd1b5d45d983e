# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER without remote invalidation (ours: remote_invalidate=0): every rkey
# is invalidated locally before its command completes; fio verify passes
# and the counters show one local invalidation per registration. Ours only:
# the in-tree driver has no such parameter (nor counters), so with it this
# would only repeat iser_data.
#
# lab-drivers: ours
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
# a module left loaded would ignore the parameter
[ -e /sys/module/ib_iser ] && iser_unload
check "ib_iser loads with remote_invalidate=0" lab_iser_load remote_invalidate=0
check "remote_invalidate is off" grep -qx N /sys/module/ib_iser/parameters/remote_invalidate
check "discovery over iSER on $IP0" iser_discover $IP0
check "login on $IP0" iser_login $IP0
check "2 disks on $IP0" iser_wait_disks $IP0 2
disk=$(iser_disks $IP0 | head -1)
check "fio verify randrw QD32" lab_fio_verify "$disk" --iodepth=32 --bsrange=4k-128k
check "no remote invalidation negotiated" test "$(iser_stat remote_invs)" = 0
check "one local invalidation per registration" iser_inv_balance
lab_note "regs local remote: $(_iser_inv_counts)"
check "logout" iser_logout $IP0
check "ib_iser unloads after logout" iser_unload
