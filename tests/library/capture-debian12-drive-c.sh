#!/bin/sh
# Runs INSIDE the Debian 12 root made by capture-debian12.sh, variant c (as
# its PID namespace's first process, loopback only): rsyslog writes every
# message to /var/log/all.log while packages are installed and removed
# from apt's cache (their maintainer scripts create and delete system users
# and groups) and while dhclient gets, renews and releases a lease from
# dnsmasq across a veth pair (the client end in its own network namespace, held by a sleeping process).
# Steps that fail are normal: nothing here stops on an error.
set +u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C
step() { echo "== $*" >&2; }
pause() { sleep "${1:-1}"; }

cat >/etc/rsyslog.conf <<'CONF'
module(load="imuxsock")
global(localHostname="deb12")
$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat
$RepeatedMsgReduction off
*.* /var/log/all.log
CONF
rm -f /etc/rsyslog.d/*.conf

step start rsyslog
rsyslogd -i /run/rsyslogd.pid
pause
logger -t capture "capture run begins"

# --- packages: maintainer scripts (adduser, useradd, groupadd...) -----------
step packages
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends --no-download $EXTRA_PACKAGES >/dev/null
pause
apt-get remove -y -q --purge dnsmasq >/dev/null
pause
apt-get install -y -q --no-install-recommends --no-download dnsmasq >/dev/null
pause
deluser --system dnsmasq 2>/dev/null
adduser --system --group --no-create-home --home /nonexistent capsys 2>/dev/null
addgroup --system capgrp 2>/dev/null
adduser --disabled-password --gecos "" capuser 2>/dev/null
adduser capuser capgrp 2>/dev/null
deluser capuser capgrp 2>/dev/null
deluser --remove-home capuser 2>/dev/null
delgroup capgrp 2>/dev/null
deluser capsys 2>/dev/null
adduser --system --group --no-create-home --home /nonexistent dnsmasq 2>/dev/null
pause

# --- DHCP: dnsmasq on veth1, dhclient on veth0 in the client namespace ------
step dhcp
mkdir -p /var/lib/dhcp /var/lib/misc
unshare --net sleep 600 &
holder=$!
pause
ip link add veth0 type veth peer name veth1
ip link set veth0 netns "$holder"
ip addr add 10.9.0.1/24 dev veth1
ip link set veth1 up
nsenter --net=/proc/$holder/ns/net ip link set lo up
dnsmasq --interface=veth1 --bind-interfaces --dhcp-range=10.9.0.50,10.9.0.60,2m \
  --dhcp-authoritative --log-dhcp --port=0 --pid-file=/run/dnsmasq.pid
pause 2
nsenter --net=/proc/$holder/ns/net dhclient -v -1 -pf /run/dhclient.pid \
  -lf /var/lib/dhcp/dhclient.veth0.leases veth0 2>/dev/null
pause 2
step renew
nsenter --net=/proc/$holder/ns/net dhclient -x -pf /run/dhclient.pid 2>/dev/null
nsenter --net=/proc/$holder/ns/net dhclient -v -1 -pf /run/dhclient.pid \
  -lf /var/lib/dhcp/dhclient.veth0.leases veth0 2>/dev/null
pause 2
step release
nsenter --net=/proc/$holder/ns/net dhclient -r -v -pf /run/dhclient.pid \
  -lf /var/lib/dhcp/dhclient.veth0.leases veth0 2>/dev/null
pause 2
step nak
# a lease file naming an address outside the range: dnsmasq refuses it
cat >/var/lib/dhcp/dhclient.veth0.leases <<'LEASE'
lease {
  interface "veth0";
  fixed-address 10.9.0.200;
  option subnet-mask 255.255.255.0;
  option dhcp-server-identifier 10.9.0.1;
  renew 4 2037/12/31 00:00:00;
  rebind 4 2037/12/31 00:00:00;
  expire 4 2037/12/31 00:00:00;
}
LEASE
nsenter --net=/proc/$holder/ns/net dhclient -v -1 -pf /run/dhclient.pid \
  -lf /var/lib/dhcp/dhclient.veth0.leases veth0 2>/dev/null
pause 2
nsenter --net=/proc/$holder/ns/net dhclient -r -pf /run/dhclient.pid \
  -lf /var/lib/dhcp/dhclient.veth0.leases veth0 2>/dev/null
step no server
kill "$(cat /run/dnsmasq.pid)"
pause
nsenter --net=/proc/$holder/ns/net timeout 25 dhclient -v -1 -pf /run/dhclient.pid \
  -lf /var/lib/dhcp/dhclient.veth0.leases veth0 2>/dev/null
pause 2

step stop
nsenter --net=/proc/$holder/ns/net dhclient -x -pf /run/dhclient.pid 2>/dev/null
pkill -x dhclient
pkill -x dnsmasq
kill "$holder"
logger -t capture "capture run ends"
pause
pkill -x rsyslogd
pause
