#!/bin/sh
# Reproduces tests/data/debian12/syslog.log: what the services of a Debian 12
# server write to syslog while they are used. Not part of `make check` (it
# needs root, debootstrap and Debian's package archive).
#
# A bookworm root (minbase) gets rsyslog writing every message to one file
# and the services; they run in their own network, UTS, PID and mount
# namespaces (loopback only, host name deb12), so nothing reaches the host's
# /dev/log or network and every process ends with the run. The driver
# (capture-debian12-drive.sh, copied into the root) starts the daemons by
# hand (no systemd in a chroot), uses them, stops them, and the log is
# copied to OUT.
#
# Two variants, each its own root, driver and output:
#   a  rsyslog and postfix; capture-debian12-drive.sh -> syslog.log
#   b  syslog-ng and exim4, fail2ban, other steps and failures;
#      capture-debian12-drive-b.sh -> syslog-b.log
#   c  rsyslog; packages installed and removed during the run (their
#      maintainer scripts' adduser/useradd/groupadd...) and dhclient against
#      dnsmasq across a veth pair; capture-debian12-drive-c.sh ->
#      syslog-c.log. Its root is a copy of variant a's root (made when
#      missing); the packages are only downloaded before the run.
#   d  systemd as PID 1 (booted in its own namespaces, see
#      capture-debian12-boot-d.sh), rsyslog fed by journald's forwarding
#      and imklog, ufw with a veth pair (its kernel LOG lines), fail2ban
#      banning through ufw, systemd-logind sessions from ssh logins, unit
#      failures, exim4 local delivery, apt and unattended-upgrades;
#      capture-debian12-drive-d.sh -> syslog-d.log. Its root is a copy of
#      variant b's root. While it runs, the host's
#      net.netfilter.nf_log_all_netns is 1 (LOG targets of other network
#      namespaces reach the kernel log; set back afterwards) and the host's
#      unread /proc/kmsg backlog is drained first, so imklog sees only the
#      kernel messages of the run (and any the host logs meanwhile).
#   e  rsyslog; the messages of older rules that no other capture holds
#      (sshd at LogLevel VERBOSE, anacron, xinetd, BIND 9, nginx, postfix's
#      delivery agents); capture-debian12-drive-e.sh -> syslog-e.log. Its
#      root is a copy of variant a's root with the extra packages installed.
#
# usage: capture-debian12.sh [a|b|c|d|e [ROOT [OUT]]]
#   ROOT defaults to /srv/roots/bookworm-services (-b for variant b; made
#   when missing; /var/tmp/bookworm-services-c for variant c)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
VARIANT=${1:-a}
COMMON="openssh-server openssh-client sudo cron at dovecot-imapd dovecot-pop3d
  vsftpd rsync chrony nginx apache2 curl sshpass login passwd procps bsd-mailx
  libpam-modules libpam-systemd iproute2"
case "$VARIANT" in
  a) ROOT=${2:-/srv/roots/bookworm-services}; OUT=${3:-$here/../data/debian12/syslog.log}
     DRIVE=capture-debian12-drive.sh; PACKAGES="$COMMON rsyslog postfix" ;;
  b) ROOT=${2:-/srv/roots/bookworm-services-b}; OUT=${3:-$here/../data/debian12/syslog-b.log}
     DRIVE=capture-debian12-drive-b.sh; PACKAGES="$COMMON syslog-ng-core exim4-daemon-light fail2ban" ;;
  c) ROOT=${2:-/var/tmp/bookworm-services-c}; OUT=${3:-$here/../data/debian12/syslog-c.log}
     DRIVE=capture-debian12-drive-c.sh; PACKAGES="$COMMON rsyslog postfix"
     EXTRA="isc-dhcp-client dnsmasq adduser"
     [ -x "$ROOT/bin/sh" ] || cp -a /srv/roots/bookworm-services "$ROOT" ;;
  d) ROOT=${2:-/var/tmp/bookworm-services-d}; OUT=${3:-$here/../data/debian12/syslog-d.log}
     DRIVE=capture-debian12-drive-d.sh
     PACKAGES="$COMMON exim4-daemon-light fail2ban rsyslog ufw iptables unattended-upgrades systemd-sysv dbus"
     EXTRA="hello"
     [ -x "$ROOT/bin/sh" ] || cp -a /srv/roots/bookworm-services-b "$ROOT" ;;
  e) ROOT=${2:-/var/tmp/bookworm-services-e}; OUT=${3:-$here/../data/debian12/syslog-e.log}
     DRIVE=capture-debian12-drive-e.sh
     # ftpd (netkit, run by xinetd) conflicts with vsftpd.
     PACKAGES="$(echo $COMMON | sed "s/vsftpd //") rsyslog postfix anacron xinetd bind9
       bind9-dnsutils ssl-cert update-inetd ftpd isc-dhcp-client"
     [ -x "$ROOT/bin/sh" ] || cp -a /srv/roots/bookworm-services "$ROOT" ;;
  *) echo "usage: $0 [a|b|c|d|e [ROOT [OUT]]]" >&2; exit 2 ;;
esac

if [ ! -x "$ROOT/bin/sh" ]; then
  debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"
printf '%s\n' "postfix postfix/main_mailer_type select Local only" \
  "postfix postfix/mailname string deb12.example" \
  "exim4-config exim4/dc_eximconfig_configtype select local delivery only; not on a network" |
  chroot "$ROOT" debconf-set-selections
chroot "$ROOT" apt-get update -q >/dev/null
# ftpd-ssl's maintainer script needs update-inetd but does not depend on it.
if [ "$VARIANT" = e ]; then
  chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q update-inetd >/dev/null
fi
# shellcheck disable=SC2086
chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends $PACKAGES >/dev/null
if [ -n "${EXTRA:-}" ]; then
  # shellcheck disable=SC2086
  chroot "$ROOT" apt-get install -y -q --no-install-recommends --download-only $EXTRA >/dev/null
fi

cp "$here/$DRIVE" "$ROOT/root/drive.sh"
rm -f "$ROOT/var/log/all.log"
if [ "$VARIANT" = d ]; then
  "$here/capture-debian12-boot-d.sh" "$ROOT"
  # the kernel log is the host's: its lines of other processes than the
  # capture's firewall are dropped
  grep -v " capture: " "$ROOT/var/log/all.log" |
    grep -v -E "^.{15} deb12 kernel: (\[ *[0-9.]+\] )?[^[]" >"$OUT"
  echo "captured $(wc -l <"$OUT") lines into $OUT"
  exit 0
fi
unshare --net --uts --pid --fork --kill-child --mount --propagation private sh -euc '
  R=$1
  hostname deb12
  ip link set lo up
  mount -t proc proc "$R/proc"
  mount -t tmpfs -o mode=755 tmpfs "$R/dev"
  for n in null:1:3 zero:1:5 random:1:8 urandom:1:9 tty:5:0; do
    mknod -m 666 "$R/dev/${n%%:*}" c "$(echo "$n" | cut -d: -f2)" "${n##*:}"
  done
  mkdir "$R/dev/pts" && mount -t devpts -o newinstance,ptmxmode=666 devpts "$R/dev/pts"
  ln -s pts/ptmx "$R/dev/ptmx"
  mkdir -p "$R/run" && mount -t tmpfs tmpfs "$R/run"
  chroot "$R" env EXTRA_PACKAGES="$2" /bin/sh /root/drive.sh
' sh "$ROOT" "${EXTRA:-}"
mkdir -p "$(dirname "$OUT")"
grep -v " capture: capture run " "$ROOT/var/log/all.log" >"$OUT"
echo "captured $(wc -l <"$OUT") lines into $OUT"
