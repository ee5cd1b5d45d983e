# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER source address binding (iface.net_ifacename) and the host's
# ipaddress (docs/iser.md).
#
# A second primary address on dummy0, $SA_IP4/25 (inside $IP0's /24, so
# $IP0 stays the device's first address on the portal's subnet), carries
# an iSER portal: the routing table connects to it from $SA_IP4 itself (the
# local route of a primary address has itself as source; a secondary
# address's would have $IP0). An iface record "srcaddr" (transport iser,
# net_ifacename dummy0) logs in to that portal, and later to an IPv6 portal
# on dummy0 ($SA_IP6).
#
# open-iscsi's iscsid connects iSER sessions with plain EP_CONNECT, on the
# first login and on every reconnect; only iscsiadm's SendTargets discovery
# through an iface whose netdev is an existing iSCSI host's connects
# through that host. So:
#   - the session connects from the routing's source; the host's ipaddress
#     (and -P3's "Iface IPaddress") must be the address the target sees,
#     before and after a reconnect (portal group disabled and enabled
#     again), and data written before the reconnect must read back
#     identically after it;
#   - a discovery through the iface once the session (host netdev dummy0)
#     exists must connect from dummy0's $IP0, not from the routing's
#     $SA_IP4: this fails when the driver ignores the binding (tried);
#   - over IPv6 the bound and the routed source are the same address here
#     (an address of the bound device equal to the destination always wins
#     source address selection), so the IPv6 discovery through the bound
#     host only shows that the IPv6 binding connects; the IPv6 session
#     checks the host's ipaddress in IPv6 form.
# The target shows the address of an initiator's latest session only, so
# the IPv6 session logs in after the IPv4 checks. Leaves the guest as it
# found it (sessions, records, iface, portals and addresses removed).
#
# lab-drivers: ours
# lab-provokes: iscsi-conn (the portal group disabled and enabled: a reconnect)
source /lab/lib-iser.sh

tpg=$CFS/iscsi/$ISER_IQN/tpgt_1
SA_IP4=192.0.2.129
SA_IP6=fd00:db8::9
SA_IP6_FULL=fd00:0db8:0000:0000:0000:0000:0000:0009	# as sysfs prints it
SA_IFACE=srcaddr
np4=$tpg/np/$SA_IP4:$ISER_PORT
np6=$tpg/np/[$SA_IP6]:$ISER_PORT

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load

ip addr add $SA_IP4/25 dev $NETDEV0
ip addr add $SA_IP6/64 dev $NETDEV0 nodad
check "routing connects to $SA_IP4 from $SA_IP4" sh -c \
	"ip route get $SA_IP4 | grep -q 'src $SA_IP4'"
mkdir -p "$np4" "$np6"
check "iSER portals on $SA_IP4 and [$SA_IP6]" sh -c \
	"echo 1 > '$np4/iser' && echo 1 > '$np6/iser'"

iscsiadm -m iface -I $SA_IFACE -o new >/dev/null
iscsiadm -m iface -I $SA_IFACE -o update -n iface.transport_name -v iser >/dev/null
check "iface $SA_IFACE bound to $NETDEV0" sh -c \
	"iscsiadm -m iface -I $SA_IFACE -o update -n iface.net_ifacename -v $NETDEV0 >/dev/null &&
	 iscsiadm -m iface -I $SA_IFACE | grep -q 'iface.net_ifacename = $NETDEV0'"

# sa_conn ADDR: iscsi_connection directory of the session to portal ADDR.
sa_conn() {
	local c
	for c in /sys/class/iscsi_connection/connection*; do
		[ "$(cat "$c/persistent_address" 2>/dev/null)" = "$1" ] && { echo "$c"; return 0; }
	done
	return 1
}
# sa_host ADDR: /sys/class/iscsi_host/hostN of the session to portal ADDR.
sa_host() {
	local c s
	c=$(sa_conn "$1") || return 1
	s=${c##*/connection}
	s=session${s%%:*}
	echo /sys/class/iscsi_host/host$(readlink -f /sys/class/iscsi_session/$s/device |
		sed -n 's|.*/host\([0-9]*\)/.*|\1|p')
}
# sa_logged_in ADDR: the session to ADDR is in full feature phase.
sa_logged_in() {
	local c s
	c=$(sa_conn "$1") || return 1
	s=${c##*/connection}
	grep -q LOGGED_IN /sys/class/iscsi_session/session${s%%:*}/state
}
# sa_lun0 ADDR: block device of LUN 0 of the session to portal ADDR.
sa_lun0() {
	local c s d
	c=$(sa_conn "$1") || return 1
	s=${c##*/connection}
	for d in /sys/class/iscsi_session/session${s%%:*}/device/target*/*:*:*:0/block/*; do
		[ -e "$d" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}
# sa_target_sees ADDR: the target shows ADDR as the initiator's address
# (of its latest session only).
sa_target_sees() {
	grep -q "Address $1 " $tpg/acls/$(lab_initiator_iqn)/info
}
# sa_connected_from DST SRC: count of our "connected" messages for DST
# from SRC in the kernel log.
sa_connected_from() {
	dmesg | grep -cF "ib_iser: $1: connected from $2 on"
}
# sa_ipaddress_is ADDR WANT: the host of the session to ADDR shows WANT as
# its ipaddress, and -P3 as its "Iface IPaddress" (IPv6 in brackets).
sa_ipaddress_is() {
	local h p3=$2
	h=$(sa_host "$1") || return 1
	echo "$h/ipaddress: $(cat $h/ipaddress 2>&1)"
	iscsiadm -m session -P3 | grep "Iface IPaddress"
	[[ $p3 == *:* ]] && p3="[$p3]"
	[ "$(cat $h/ipaddress)" = "$2" ] &&
		iscsiadm -m session -P3 |
		awk -F': ' '/Iface IPaddress:/ { print $2 }' | grep -qxF "$p3"
}

# First discovery: no host is bound to dummy0 yet, iscsiadm connects
# without one (routing's source).
check "discovery through $SA_IFACE on $SA_IP4" sh -c \
	"iscsiadm -m discovery -t st -p $SA_IP4:$ISER_PORT -I $SA_IFACE | grep -q '$SA_IP4:$ISER_PORT.*$ISER_IQN'"
lab_note "unbound discovery: $(sa_connected_from $SA_IP4:$ISER_PORT $SA_IP4) connection(s) from $SA_IP4"
check "login through $SA_IFACE on $SA_IP4" \
	iscsiadm -m node -T $ISER_IQN -p $SA_IP4:$ISER_PORT -I $SA_IFACE --login
check "2 disks on $SA_IP4" iser_wait_disks $SA_IP4 2
h4=$(sa_host $SA_IP4)
check "host netdev is $NETDEV0 (set by iscsid)" grep -qx $NETDEV0 $h4/netdev
check "target sees the session from $SA_IP4" sa_target_sees $SA_IP4
check "host ipaddress is the connection's address $SA_IP4" \
	sa_ipaddress_is $SA_IP4 $SA_IP4

disk=$(sa_lun0 $SA_IP4)
dd if=/dev/urandom of=/tmp/sa-pattern bs=1M count=4 2>/dev/null
sum=$(sha256sum < /tmp/sa-pattern)
check "4 MiB written to LUN 0 ($disk)" \
	dd if=/tmp/sa-pattern of=/dev/$disk bs=1M seek=64 oflag=direct

# Reconnect: the target drops the connection (disabling the portal group),
# iscsid connects again once it is enabled.
n=$(sa_connected_from $SA_IP4:$ISER_PORT $SA_IP4)
echo 0 > $tpg/enable
sleep 3
echo 1 > $tpg/enable
sa_reconnected() {
	[ "$(sa_connected_from $SA_IP4:$ISER_PORT $SA_IP4)" -gt "$n" ] &&
		sa_logged_in $SA_IP4
}
check "session reconnected" lab_wait 60 sa_reconnected
check "target sees the new connection from $SA_IP4" sa_target_sees $SA_IP4
check "host ipaddress after the reconnect is $SA_IP4" \
	sa_ipaddress_is $SA_IP4 $SA_IP4
check "data reads back identically on $disk after the reconnect" sh -c \
	"[ \"\$(dd if=/dev/$disk bs=1M skip=64 count=4 iflag=direct 2>/dev/null | sha256sum)\" = '$sum' ]"

# The binding: a discovery through the iface now connects through the host
# bound to dummy0, from dummy0's primary address, not the routing's source.
n=$(sa_connected_from $SA_IP4:$ISER_PORT $IP0)
check "IPv4 discovery through the host bound to $NETDEV0" sh -c \
	"iscsiadm -m discovery -t st -p $SA_IP4:$ISER_PORT -I $SA_IFACE | grep -q '$ISER_IQN'"
check "IPv4 discovery connected from $NETDEV0's $IP0, not the routed $SA_IP4" \
	test "$(sa_connected_from $SA_IP4:$ISER_PORT $IP0)" -gt "$n"

# IPv6: discovery through the bound host, then a session of its own (the
# target shows the address of an initiator's latest session only).
n=$(sa_connected_from "[$SA_IP6]:$ISER_PORT" $SA_IP6)
check "IPv6 discovery through the host bound to $NETDEV0" sh -c \
	"iscsiadm -m discovery -t st -p [$SA_IP6]:$ISER_PORT -I $SA_IFACE | grep -q '$ISER_IQN'"
check "IPv6 discovery connected from $NETDEV0's $SA_IP6" \
	test "$(sa_connected_from "[$SA_IP6]:$ISER_PORT" $SA_IP6)" -gt "$n"
check "IPv6 login through $SA_IFACE on [$SA_IP6]" \
	iscsiadm -m node -T $ISER_IQN -p "[$SA_IP6]:$ISER_PORT" -I $SA_IFACE --login
check "2 disks on [$SA_IP6]" iser_wait_disks $SA_IP6 2
check "target sees the IPv6 session from $SA_IP6" sa_target_sees $SA_IP6
check "IPv6 host ipaddress is $SA_IP6" sa_ipaddress_is $SA_IP6 $SA_IP6_FULL
disk6=$(sa_lun0 $SA_IP6)
check "the data reads back through the IPv6 session ($disk6)" sh -c \
	"[ \"\$(dd if=/dev/$disk6 bs=1M skip=64 count=4 iflag=direct 2>/dev/null | sha256sum)\" = '$sum' ]"
dmesg | grep -F "connected from" | tail -8

check "logout through $SA_IFACE" sh -c \
	"iscsiadm -m node -T $ISER_IQN -p $SA_IP4:$ISER_PORT -I $SA_IFACE --logout &&
	 iscsiadm -m node -T $ISER_IQN -p '[$SA_IP6]:$ISER_PORT' -I $SA_IFACE --logout"
iscsiadm -m node -I $SA_IFACE -o delete >/dev/null 2>&1
iscsiadm -m iface -I $SA_IFACE -o delete >/dev/null 2>&1
rmdir "$np4" "$np6"
ip addr del $SA_IP4/25 dev $NETDEV0
ip addr del $SA_IP6/64 dev $NETDEV0
check "no session, record, portal or address left" sh -c \
	"! iscsiadm -m session 2>/dev/null | grep -q . &&
	 ! iscsiadm -m iface | grep -q '^$SA_IFACE ' &&
	 [ ! -e '$np4' ] && [ ! -e '$np6' ] &&
	 ! ip addr show dev $NETDEV0 | grep -qE '$SA_IP4|$SA_IP6'"
check "ib_iser unloads after logout" iser_unload
