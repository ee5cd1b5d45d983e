# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP basics: RDMA/CM login on both paths, every host attribute read back
# and format-checked, EEXIST, LUN scan, ext4 + checksum, fio verify at a few
# queue depths, delete + immediate re-login, unload.
#
# lab-drivers: ours intree
. /lab/lib-srp.sh

lab_srpt_up 2
check "ib_srp loads" lab_srp_load
check "class device srp-$RXE0-1" test -e /sys/class/infiniband_srp/srp-$RXE0-1/add_target
check "class device ibdev/port" sh -c "[ \$(cat /sys/class/infiniband_srp/srp-$RXE1-1/ibdev) = $RXE1 ] && [ \$(cat /sys/class/infiniband_srp/srp-$RXE1-1/port) = 1 ]"
for p in cmd_sg_entries indirect_sg_entries allow_ext_sg register_always \
	 never_register reconnect_delay fast_io_fail_tmo dev_loss_tmo \
	 use_imm_data max_imm_data ch_count topspin_workarounds srp_sg_tablesize; do
	check "module parameter $p exists" test -r /sys/module/ib_srp/parameters/$p
done
check "use_imm_data starts with Y" sh -c "head -c1 /sys/module/ib_srp/parameters/use_imm_data | grep -q Y"
check "max_imm_data is decimal" grep -Eqx '[0-9]+' /sys/module/ib_srp/parameters/max_imm_data

h0=$(lab_srp_login 0) && pass "login over RDMA/CM on path 0" || fail "login over RDMA/CM on path 0"
h1=$(lab_srp_login 1) && pass "login over RDMA/CM on path 1" || fail "login over RDMA/CM on path 1"
check "LUNs present at once after the write (path 0)" test "$(lab_host_disks $h0 | wc -l)" -eq 2
srp_wait_disks "$h1" 2
check "path 1 shows 2 LUNs" test "$(lab_host_disks $h1 | wc -l)" -eq 2

x='0x[0-9a-f]{16}'
g='[0-9a-f]{4}(:[0-9a-f]{4}){7}'
check "attr id_ext" srp_attr_fmt $h0 id_ext "$x"
check "attr ioc_guid" srp_attr_fmt $h0 ioc_guid "$x"
check "attr sgid" srp_attr_fmt $h0 sgid "$g"
check "attr req_lim" srp_attr_fmt $h0 req_lim '[-]?[0-9]+'
check "attr zero_req_lim" srp_attr_fmt $h0 zero_req_lim '[0-9]+'
check "attr local_ib_port" srp_attr_fmt $h0 local_ib_port 1
check "attr local_ib_device" srp_attr_fmt $h0 local_ib_device "$RXE0"
check "attr ch_count" srp_attr_fmt $h0 ch_count '[1-9][0-9]*'
check "attr comp_vector" srp_attr_fmt $h0 comp_vector '[0-9]+'
check "attr tl_retry_count" srp_attr_fmt $h0 tl_retry_count '[2-7]'
check "attr cmd_sg_entries" srp_attr_fmt $h0 cmd_sg_entries '[0-9]+'
check "attr allow_ext_sg" srp_attr_fmt $h0 allow_ext_sg 'true|false'
check "attr proc_name" srp_attr_fmt $h0 proc_name ib_srp
for a in service_id pkey dgid orig_dgid; do
	check "attr $a is ENOENT on RDMA/CM" srp_attr_enoent $h0 $a
done
r=/sys/class/srp_remote_ports/port-$h0:1
check "rport port-$h0:1" test -d $r
check "rport state running" grep -qx running $r/state
check "rport port_id" grep -Eqx '([0-9a-f]{2}:){15}[0-9a-f]{2}' $r/port_id
for a in fast_io_fail_tmo dev_loss_tmo reconnect_delay; do
	check "rport $a" grep -Eqx '[0-9]+|off' $r/$a
done

g=$(srpt_guid)
check "duplicate login fails with EEXIST" srp_add_target_errno 0 "File exists" "id_ext=$g,ioc_guid=$g,dest=$IP0:$SRP_PORT"

d0=$(lab_host_disks $h0 | head -1)
d1=$(lab_host_disks $h0 | tail -1)
check "ext4 on $d0: data survives remount" lab_data_check $d0
for qd in 1 16 64; do
	check "fio verify randrw QD$qd on $d1" lab_fio_verify $d1 --iodepth=$qd --size=8m
done

check "delete path 0" srp_logout $h0
h0=$(lab_srp_login 0) && pass "re-login right after delete" || fail "re-login right after delete"
check "LUNs back after re-login" test "$(lab_host_disks $h0 | wc -l)" -eq 2
check "logout all" srp_logout_all
check "no SRP hosts after logout" test -z "$(lab_srp_hosts)"
check "ib_srp unloads after logout" lab_unload ib_srp
