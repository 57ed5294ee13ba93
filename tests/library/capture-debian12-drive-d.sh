#!/bin/sh
# Variant d of capture-debian12.sh: a Debian 12 server booted with systemd
# as PID 1 (in its own namespaces), so that what systemd, journald's
# forwarding to syslog, systemd-logind, ufw's kernel LOG lines, fail2ban
# (banning through ufw), exim4, apt, unattended-upgrades and rsyslog itself
# log reaches rsyslog, which writes every message to /var/log/all.log.
#   drive-d.sh prepare   run by chroot before the boot: configuration
#   drive-d.sh drive     run by nsenter in the booted root: the uses
# Steps that fail are normal: nothing here stops on an error.
# $C (the client's namespace) and $SSHO (ssh options) are word lists.
# shellcheck disable=SC2086
set +u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C
step() { echo "== $*" >&2; logger -t capture "step $*"; }
pause() { sleep "${1:-1}"; }
SSHO="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=5"

prepare() {
  echo deb12 >/etc/hostname
  printf '127.0.0.1 localhost\n127.0.1.1 deb12.example deb12\n' >/etc/hosts
  rm -rf /var/spool/exim4/input/* /var/spool/exim4/msglog/* /var/log/journal/*
  rm -f /var/lib/fail2ban/fail2ban.sqlite3 /var/log/all.log /var/log/auth.log
  : >/var/log/auth.log
  cat >/etc/rsyslog.conf <<'CONF'
module(load="imuxsock")
module(load="imklog")
global(localHostname="deb12")
$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat
$RepeatedMsgReduction off
*.* /var/log/all.log
auth,authpriv.* /var/log/auth.log
CONF
  rm -f /etc/rsyslog.d/*.conf
  systemctl enable rsyslog.service
  # no clock, console or hardware of its own; the web, IMAP and FTP servers
  # were captured in a and b
  systemctl mask chrony.service systemd-pstore.service e2scrub_reap.service console-getty.service
  systemctl disable apache2 nginx dovecot vsftpd atd postfix syslog-ng 2>/dev/null
  cat >/etc/fail2ban/jail.local <<'CONF'
[DEFAULT]
ignoreself = false
ignoreip =
banaction = ufw
backend = polling
[sshd]
enabled = true
logpath = /var/log/auth.log
maxretry = 3
findtime = 600
bantime = 30
CONF
  cat >/etc/fail2ban/fail2ban.local <<'CONF'
[Definition]
logtarget = SYSLOG
CONF
  sed -i 's/^ENABLED=.*/ENABLED=yes/; s/^LOGLEVEL=.*/LOGLEVEL=low/' /etc/ufw/ufw.conf
  ufw --force reset >/dev/null 2>&1
  sed -i 's/^ENABLED=.*/ENABLED=yes/' /etc/ufw/ufw.conf
  ufw allow 22/tcp >/dev/null 2>&1
  ufw allow log 25/tcp >/dev/null 2>&1
  cat >/etc/apt/apt.conf.d/52capture <<'CONF'
Unattended-Upgrade::SyslogEnable "true";
Unattended-Upgrade::SyslogFacility "daemon";
CONF
  cat >/etc/systemd/system/capfail.service <<'CONF'
[Unit]
Description=Capture unit that fails
[Service]
ExecStart=/bin/sh -c 'exit 3'
CONF
  cat >/etc/systemd/system/capsleep.service <<'CONF'
[Unit]
Description=Capture unit that is killed
[Service]
ExecStart=/bin/sleep 600
CONF
  cat >/etc/systemd/system/capbad.service <<'CONF'
[Unit]
Description=Capture unit with a missing program
[Service]
ExecStart=/usr/local/bin/no-such-program
CONF
  cat >/etc/systemd/system/capflap.service <<'CONF'
[Unit]
Description=Capture unit that keeps failing
StartLimitIntervalSec=20
StartLimitBurst=3
[Service]
ExecStart=/bin/false
Restart=on-failure
RestartSec=200ms
CONF
  cat >/etc/systemd/system/capslow.service <<'CONF'
[Unit]
Description=Capture unit that times out
[Service]
Type=oneshot
TimeoutStartSec=2
ExecStart=/bin/sleep 30
CONF
  echo "alice:alicepw" | chpasswd
  echo "bob:bobpw" | chpasswd
}

drive() {
  logger -t capture "capture run begins"
  step network
  unshare --net sleep 900 &
  holder=$!
  pause
  ip link add veth0 type veth peer name veth1
  ip link set veth0 netns "$holder"
  ip addr add 10.9.0.1/24 dev veth1
  ip link set veth1 up
  C="nsenter --net=/proc/$holder/ns/net"
  $C ip link set lo up
  $C ip addr add 10.9.0.2/24 dev veth0
  $C ip link set veth0 up
  pause 2

  step firewall
  ufw status verbose >/dev/null
  $C curl -s --connect-timeout 2 telnet://10.9.0.1:23 </dev/null >/dev/null
  $C curl -s --connect-timeout 2 http://10.9.0.1:8080/ >/dev/null
  $C sh -c 'echo x >/dev/udp/10.9.0.1/161' 2>/dev/null
  $C bash -c 'echo x >/dev/udp/10.9.0.1/161' 2>/dev/null
  $C curl -s --connect-timeout 2 telnet://10.9.0.1:25 </dev/null >/dev/null
  $C ping -c 1 -W 1 10.9.0.1 >/dev/null 2>&1
  ufw deny 8080/tcp >/dev/null
  ufw reload >/dev/null
  $C curl -s --connect-timeout 2 http://10.9.0.1:8080/ >/dev/null
  ufw delete deny 8080/tcp >/dev/null
  ufw limit 2222/tcp >/dev/null
  for _ in 1 2 3 4 5 6 7 8; do
    $C curl -s --connect-timeout 1 telnet://10.9.0.1:2222 </dev/null >/dev/null
  done
  pause 2

  step ssh logind
  $C sshpass -p alicepw ssh $SSHO alice@10.9.0.1 'sleep 1'
  pause 2
  $C sshpass -p alicepw ssh $SSHO alice@10.9.0.1 'loginctl list-sessions >/dev/null; sleep 1'
  (sleep 2; loginctl terminate-user bob) &
  $C sshpass -p bobpw ssh $SSHO bob@10.9.0.1 'sleep 10'
  loginctl enable-linger alice
  pause 3
  loginctl disable-linger alice
  pause 3
  $C sshpass -p alicepw ssh $SSHO alice@10.9.0.1 "sleep 6" &
  session=$!
  pause 3
  loginctl lock-sessions
  loginctl unlock-sessions
  loginctl kill-user alice
  wait "$session"
  shutdown -r +5 >/dev/null 2>&1
  pause 2
  shutdown -c >/dev/null 2>&1
  pause 2

  step fail2ban
  for _ in 1 2 3 4; do
    $C sshpass -p wrong ssh $SSHO -o NumberOfPasswordPrompts=1 bob@10.9.0.1 true
  done
  pause 8
  fail2ban-client status sshd >/dev/null
  $C curl -s --connect-timeout 2 telnet://10.9.0.1:22 </dev/null >/dev/null
  fail2ban-client set sshd unbanip 10.9.0.2 >/dev/null
  pause 2
  fail2ban-client reload >/dev/null
  pause 3

  step systemd units
  systemctl start capfail.service
  systemctl start capsleep.service
  pause
  systemctl kill -s KILL capsleep.service
  systemctl start capbad.service
  pause
  systemctl start capflap.service
  pause 3
  systemctl start capslow.service
  systemctl reset-failed capflap.service
  systemctl mask capbad.service
  systemctl unmask capbad.service
  systemctl restart cron.service
  systemctl stop ssh.service
  systemctl start ssh.service
  systemctl reload ssh.service
  systemctl daemon-reload
  systemd-run --unit=capture-once /bin/true
  systemd-run --on-active=1 --unit=capture-timer /bin/true
  pause 3
  systemctl start no-such-unit.service 2>/dev/null
  systemctl reset-failed

  step exim4
  printf 'Subject: capture d\n\nhello\n' | /usr/sbin/exim4 -odi alice@deb12.example
  printf 'Subject: capture d\n\nhello\n' | /usr/sbin/exim4 -odi nobody-here@deb12.example
  pause 2

  step apt
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends --no-download hello >/dev/null
  apt-get remove -y -q --purge hello >/dev/null
  unattended-upgrade --dry-run -v >/dev/null 2>&1
  systemctl start apt-daily.service
  systemctl start apt-daily-upgrade.service
  pause 3

  step rsyslog
  systemctl reload rsyslog.service 2>/dev/null || kill -HUP "$(systemctl show -p MainPID --value rsyslog.service)"
  pause
  systemctl restart rsyslog.service
  pause 2

  kill "$holder"
  logger -t capture "capture run ends"
  pause
}

case "$1" in
  prepare) prepare ;;
  drive) drive ;;
  *) echo "usage: $0 prepare|drive" >&2; exit 2 ;;
esac
