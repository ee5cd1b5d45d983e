# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# External descriptor tables (allow_ext_sg) and targets that take direct
# descriptors only, against the fake target (tests/fake-target/), whose
# 8 MiB LUN 0 has every 512-byte block start with its LBA.
#
#  1. never_register=1, cmd_sg_entries=2, allow_ext_sg=1: O_DIRECT reads
#     from buffers of many non-contiguous pages need more descriptors than
#     fit in the SRP_CMD; the fake target (-x) reads the table with RDMA
#     READ (EXT_TABLE lines), checks the IU's partial copy against it and
#     writes the data to every descriptor. The data must be right.
#  2. The same without allow_ext_sg, against a fake target that refuses
#     external tables: I/O is split to fit (sg_tablesize 2), never an
#     overlong IU or an external table.
#  3. Fast registration, cmd_sg_entries=1, allow_ext_sg=1, max_sect 8 MiB:
#     several MRs per command, the table registered with one more MR.
#  4. Direct-only targets with cmd_sg_entries 12 (FR, 8 MiB max_sect) and
#     4 (never_register=1): the host is sized for one descriptor per
#     command, reads are right, no indirect descriptor is ever sent.
#  5. The module parameters these keys default to.
#
# Logins 1 and 3 give the fake target an ioc_guid with the OUI of Topspin
# (00:05:ad) and Cisco (00:1b:0d), login 2 and the one of 5 with
# topspin_workarounds=0 another OUI or the same Topspin one: the
# initiator port id in the login request (the fake target's LOGIN_REQ
# ipi=) is 8 zero bytes and the HCA's node GUID for the first two, as the
# in-tree driver sends to those targets, and initiator_ext and the port
# GID's interface id (SRP r16a) for the others.
#
# lab-drivers: ours
. /lab/lib-hostile.sh

# extsg_max_entries: the most descriptors of one external table fetched.
extsg_max_entries() {
	sed -n 's/^EXT_TABLE .* entries=\([0-9]*\) .*/\1/p' $FAKE_LOG | sort -n | tail -1
}

# extsg_fake_clean: no overlong IU, refused format, mismatch or error.
extsg_fake_clean() {
	! grep -E '^(OVERLONG_IU|UNSUPPORTED_FMT|EXT_TABLE_MISMATCH|EXT_TABLE_REFUSED|ERROR|WC_ERROR)' $FAKE_LOG
}

# extsg_host_attr NAME: a SCSI host attribute of the fake target's host.
extsg_host_attr() { cat /sys/class/scsi_host/host$HOSTILE_HOST/$1; }

# topspin_workarounds: ioc_guids of a Topspin and of a Cisco target, and an
# initiator_ext that makes the r16a initiator port id differ from the
# workaround's in its first half (on rxe the node GUID and the GID's
# interface id are both the MAC's EUI-64).
TOPSPIN_IOC=0x0005ad00000fa4e0
CISCO_IOC=0x001b0d00000fa4e0
EXTSG_IEXT=00000000000012ab

# extsg_ipi_is topspin|r16a: the initiator port id of the fake target's
# latest login request is the Topspin/Cisco workaround's (8 zero bytes,
# then the node GUID), or initiator_ext then the host's GID interface id.
extsg_ipi_is() {
	local got want
	got=$(sed -n 's/^LOGIN_REQ .* ipi=\([0-9a-f]*\)$/\1/p' $FAKE_LOG | tail -1)
	case $1 in
	topspin) want=0000000000000000$(tr -d : < /sys/class/infiniband/$RXE0/node_guid) ;;
	*) want=$EXTSG_IEXT$(extsg_host_attr sgid | tr -d : | tail -c 17) ;;
	esac
	echo "initiator port id '$got', want '$want' ($1)"
	[ ${#got} = 32 ] && [ "$got" = "$want" ]
}

# extsg_big_requests: let requests grow to the host's max_sectors (sd caps
# them at 1280 KiB when the LUN reports no transfer limits).
extsg_big_requests() {
	local q=/sys/block/$HOSTILE_DEV/queue
	cat $q/max_hw_sectors_kb > $q/max_sectors_kb &&
		lab_note "max_sectors_kb $(cat $q/max_sectors_kb)"
}

lab_net_up
check "srp-fake-target is in the payload" hostile_have_fake || return 0

# 1. never_register=1: every page a descriptor, the rest in the table.
tag="never_register, allow_ext_sg"
check "[$tag] ib_srp loads" lab_srp_load never_register=1
HOSTILE_EXTRA=cmd_sg_entries=2,allow_ext_sg=1,sg_tablesize=256,max_sect=2048,initiator_ext=$EXTSG_IEXT
HOSTILE_IOC=$TOPSPIN_IOC
if hostile_login ok -x; then
	pass "[$tag] login"
	check "[$tag] Topspin ioc_guid, topspin_workarounds=1: initiator port id 0 + node GUID" \
		extsg_ipi_is topspin
	check "[$tag] allow_ext_sg reads true" test "$(extsg_host_attr allow_ext_sg)" = true
	check "[$tag] sg_tablesize 256 with cmd_sg_entries 2" \
		test "$(extsg_host_attr sg_tablesize)" = 256
	check "[$tag] 64 KiB O_DIRECT reads of 2 MiB match the pattern" hostile_read_ok 64K 32
	check "[$tag] 1 MiB O_DIRECT reads of 2 MiB match the pattern" hostile_read_ok 1M 2
	n=$(extsg_max_entries)
	lab_note "largest external table: ${n:-none} entries; $(hostile_fake_count '^EXT_TABLE ') tables fetched"
	check "[$tag] the target fetched external tables of more than 2 entries" \
		test "${n:-0}" -gt 2
	check "[$tag] no overlong IU, refused table or error at the target" extsg_fake_clean
	check "[$tag] logout" hostile_logout
else
	fail "[$tag] login"
	hostile_logout
fi

# 2. Same host without allow_ext_sg: split to fit, never an external table.
tag="never_register, no allow_ext_sg"
HOSTILE_EXTRA=cmd_sg_entries=2,sg_tablesize=256,max_sect=2048,initiator_ext=$EXTSG_IEXT
HOSTILE_IOC=
if hostile_login ok; then
	pass "[$tag] login"
	check "[$tag] other ioc_guid: initiator port id initiator_ext + GID (r16a)" \
		extsg_ipi_is r16a
	check "[$tag] allow_ext_sg reads false" test "$(extsg_host_attr allow_ext_sg)" = false
	check "[$tag] sg_tablesize capped at cmd_sg_entries 2" \
		test "$(extsg_host_attr sg_tablesize)" = 2
	check "[$tag] 1 MiB O_DIRECT reads of 2 MiB match the pattern" hostile_read_ok 1M 2
	check "[$tag] no external table, overlong IU or error at the target" extsg_fake_clean
	check "[$tag] logout" hostile_logout
else
	fail "[$tag] login"
	hostile_logout
fi

# 4b. Direct-only target, never_register=1, cmd_sg_entries=4.
tag="direct-only, never_register, cmd_sg_entries=4"
HOSTILE_EXTRA=cmd_sg_entries=4,sg_tablesize=256,max_sect=2048
if hostile_login rsp-direct-only; then
	pass "[$tag] login"
	check "[$tag] host sized for one descriptor (sg_tablesize 1)" \
		test "$(extsg_host_attr sg_tablesize)" = 1
	check "[$tag] kernel log says so" lab_log_has "direct data descriptors only: one descriptor per command"
	check "[$tag] 1 MiB O_DIRECT reads of 2 MiB match the pattern" hostile_read_ok 1M 2
	check "[$tag] no indirect descriptor, overlong IU or error at the target" extsg_fake_clean
	check "[$tag] logout" hostile_logout
else
	fail "[$tag] login"
	hostile_logout
fi
HOSTILE_EXTRA=
check "[never_register] ib_srp unloads" lab_unload ib_srp

# 3. Fast registration: 8 MiB commands need several MRs, one descriptor
# each, with one in the SRP_CMD; the table is registered too.
tag="FR, allow_ext_sg"
check "[$tag] ib_srp loads" lab_srp_load
HOSTILE_EXTRA=cmd_sg_entries=1,allow_ext_sg=1,max_sect=16384,initiator_ext=$EXTSG_IEXT
HOSTILE_IOC=$CISCO_IOC
if hostile_login ok -x; then
	pass "[$tag] login"
	check "[$tag] Cisco ioc_guid, topspin_workarounds=1: initiator port id 0 + node GUID" \
		extsg_ipi_is topspin
	check "[$tag] requests may grow to 8 MiB" extsg_big_requests
	check "[$tag] 8 MiB O_DIRECT read matches the pattern" hostile_read_ok 8M 1
	n=$(extsg_max_entries)
	lab_note "largest external table: ${n:-none} entries; $(hostile_fake_count '^EXT_TABLE ') tables fetched"
	check "[$tag] the target fetched external tables of several MRs" \
		test "${n:-0}" -gt 1
	check "[$tag] no overlong IU, refused table or error at the target" extsg_fake_clean
	check "[$tag] logout" hostile_logout
else
	fail "[$tag] login"
	hostile_logout
fi
HOSTILE_IOC=

# 4a. Direct-only target with fast registration and cmd_sg_entries=12.
tag="direct-only, FR, cmd_sg_entries=12"
HOSTILE_EXTRA=cmd_sg_entries=12,max_sect=16384
if hostile_login rsp-direct-only; then
	pass "[$tag] login"
	check "[$tag] kernel log says so" lab_log_has "direct data descriptors only: one descriptor per command"
	check "[$tag] max_sectors fits one MR (2 MiB on rxe)" \
		test "$(cat /sys/block/$HOSTILE_DEV/queue/max_hw_sectors_kb)" -le 2048
	check "[$tag] requests may grow to max_sectors" extsg_big_requests
	check "[$tag] 8 MiB O_DIRECT read matches the pattern" hostile_read_ok 8M 1
	check "[$tag] no indirect descriptor, overlong IU or error at the target" extsg_fake_clean
	check "[$tag] logout" hostile_logout
else
	fail "[$tag] login"
	hostile_logout
fi
HOSTILE_EXTRA=

# 5. The module parameters these keys default to (issue 33's coverage):
# cmd_sg_entries, allow_ext_sg and indirect_sg_entries at load are what a
# login without the keys gets (never_register=1: sg_tablesize is
# indirect_sg_entries with allow_ext_sg); srp_sg_tablesize is the old
# name of cmd_sg_entries and says so; max_imm_data, writable at run time,
# bounds the next login's immediate data (debugfs); topspin_workarounds=0
# turns the Topspin/Cisco initiator port id off.
tag="module parameters"
check "[$tag] ib_srp unloads" lab_unload ib_srp
check "[$tag] ib_srp loads with never_register=1 cmd_sg_entries=3 allow_ext_sg=1 indirect_sg_entries=96 topspin_workarounds=0" \
	lab_srp_load never_register=1 cmd_sg_entries=3 allow_ext_sg=1 indirect_sg_entries=96 topspin_workarounds=0
echo 1024 > /sys/module/ib_srp/parameters/max_imm_data
HOSTILE_EXTRA=max_sect=2048,initiator_ext=$EXTSG_IEXT
HOSTILE_IOC=$TOPSPIN_IOC
if hostile_login ok; then
	pass "[$tag] login without sg keys"
	check "[$tag] Topspin ioc_guid, topspin_workarounds=0: initiator port id initiator_ext + GID (r16a)" \
		extsg_ipi_is r16a
	check "[$tag] cmd_sg_entries 3" test "$(extsg_host_attr cmd_sg_entries)" = 3
	check "[$tag] allow_ext_sg reads true" test "$(extsg_host_attr allow_ext_sg)" = true
	check "[$tag] sg_tablesize 96" test "$(extsg_host_attr sg_tablesize)" = 96
	check "[$tag] max_imm_data 1024 on the channel" \
		grep -qx "max_imm_data 1024" /sys/kernel/debug/ib_srp/host$HOSTILE_HOST/ch0
	check "[$tag] logout" hostile_logout
else
	fail "[$tag] login without sg keys"
	hostile_logout
fi
HOSTILE_IOC=
check "[$tag] ib_srp unloads" lab_unload ib_srp
lab_log_mark
check "[$tag] ib_srp loads with never_register=1 srp_sg_tablesize=5" \
	lab_srp_load never_register=1 srp_sg_tablesize=5
check "[$tag] srp_sg_tablesize: the log says it is deprecated" \
	lab_log_has "srp_sg_tablesize is deprecated"
if hostile_login ok; then
	pass "[$tag] login (srp_sg_tablesize=5)"
	check "[$tag] srp_sg_tablesize=5: cmd_sg_entries 5" test "$(extsg_host_attr cmd_sg_entries)" = 5
	check "[$tag] logout (srp_sg_tablesize=5)" hostile_logout
else
	fail "[$tag] login (srp_sg_tablesize=5)"
	hostile_logout
fi
HOSTILE_EXTRA=

check "no SRP hosts at the end" hostile_no_hosts
check "ib_srp unloads" lab_unload ib_srp
