#!/bin/sh
# Runs INSIDE the Debian 12 root made by capture-debian12.sh, variant e (as
# its PID namespace's first process, loopback only): rsyslog writes every
# message to /var/log/all.log while the steps produce the messages of older
# rules of the library that no other capture holds: sshd at LogLevel
# VERBOSE (sessions, subsystems, keyboard-interactive/PAM, refused keys and
# modes, key exchange and grace-time failures, MaxStartups, client alive
# timeout, too many attempts, a client's disconnect before key exchange),
# PAM (expiring password, pam_succeed_if, a bad limits item), su and sudo
# without a terminal, dovecot IMAP IDLE, anacron, xinetd and netkit ftpd,
# BIND 9 (start, zones, a secondary's transfer, denied and unresolvable
# queries), nginx failing to bind, postfix's smtp, lmtp, pipe, local and
# virtual delivery agents, queue expiry and anvil, and a bridge with a veth
# pair (the kernel's records are read with dmesg) with dhclient (v4 and v6)
# and no server, cron mailing a job's output through a failing MTA, and
# sshd and postfix's smtpd meeting a client whose address does not map back,
# SMTP AUTH with a wrong password (postfix with Dovecot SASL).
# Steps that fail are normal: nothing here stops on an error.
set +u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C
step() { echo "== $*" >&2; }
pause() { sleep "${1:-1}"; }
SSHO="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"

cat >/etc/rsyslog.conf <<'CONF'
module(load="imuxsock")
global(localHostname="deb12")
$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat
$RepeatedMsgReduction off
*.* /var/log/all.log
CONF
rm -f /etc/rsyslog.d/*.conf
printf '127.0.0.1 localhost\n127.0.1.1 deb12.example deb12\n' >/etc/hosts
mkdir -p /run/lock /run/sshd /run/named /var/cache/bind
for u in alice bob; do userdel -r "$u" 2>/dev/null; done
rm -f /var/log/all.log; postsuper -d ALL 2>/dev/null

step start rsyslog
rsyslogd -i /run/rsyslogd.pid
pause
logger -t capture "capture run begins"

# --- accounts --------------------------------------------------------------
useradd -m -s /bin/bash alice && echo alice:secret | chpasswd
useradd -m -s /bin/bash bob && echo bob:bobpw | chpasswd

# --- sshd at LogLevel VERBOSE ------------------------------------------------
step sshd
ssh-keygen -A >/dev/null
cat >/etc/ssh/sshd_config.d/capture.conf <<'CONF'
LogLevel VERBOSE
KbdInteractiveAuthentication yes
UsePAM yes
MaxAuthTries 2
LoginGraceTime 3
MaxStartups 2:50:3
ClientAliveInterval 1
ClientAliveCountMax 1
CONF
/usr/sbin/sshd
pause
sshpass -p secret ssh $SSHO alice@127.0.0.1 'echo hi'
sshpass -p secret ssh $SSHO -tt alice@127.0.0.1 'exit' </dev/null
sshpass -p secret ssh $SSHO -o PreferredAuthentications=keyboard-interactive alice@127.0.0.1 id
sshpass -p wrong ssh $SSHO -o PreferredAuthentications=keyboard-interactive -o NumberOfPasswordPrompts=1 alice@127.0.0.1 id
sshpass -p wrong ssh $SSHO -o PreferredAuthentications=keyboard-interactive -o NumberOfPasswordPrompts=1 oracle@127.0.0.1 id
sshpass -p wrong ssh $SSHO -o PreferredAuthentications=password -o NumberOfPasswordPrompts=3 alice@127.0.0.1 id
sshpass -p wrong ssh $SSHO -o PreferredAuthentications=password -o NumberOfPasswordPrompts=3 admin@127.0.0.1 id
sshpass -p wrong ssh $SSHO -o PreferredAuthentications=password -o NumberOfPasswordPrompts=3 root@127.0.0.1 id
ssh $SSHO -o BatchMode=yes -o PubkeyAuthentication=no alice@127.0.0.1 id
pause
# Keys: bad modes on the home directory, an RSA key signed with ssh-rsa (SHA-1).
ssh-keygen -q -t ed25519 -N '' -f /root/id_ed && ssh-keygen -q -t rsa -b 2048 -N '' -f /root/id_rsa
mkdir -p /home/bob/.ssh /home/alice/.ssh
cat /root/id_ed.pub >/home/bob/.ssh/authorized_keys
cat /root/id_rsa.pub >/home/alice/.ssh/authorized_keys
chown -R bob:bob /home/bob/.ssh; chown -R alice:alice /home/alice/.ssh
chmod 777 /home/bob
ssh $SSHO -o BatchMode=yes -i /root/id_ed bob@127.0.0.1 id
chmod 755 /home/bob
ssh $SSHO -o BatchMode=yes -i /root/id_ed bob@127.0.0.1 'head -c 100000 /dev/zero' >/dev/null
printf 'ls\nquit\n' | sftp $SSHO -b - -i /root/id_ed bob@127.0.0.1 >/dev/null
for k in 1 2 3; do ssh-keygen -q -t ed25519 -N '' -f /root/id_other$k; done
for u in alice admin root; do
  ssh $SSHO -o BatchMode=yes -o IdentitiesOnly=yes -i /root/id_other1 -i /root/id_other2 -i /root/id_other3 $u@127.0.0.1 id
done
ssh $SSHO -o BatchMode=yes -o PubkeyAcceptedAlgorithms=ssh-rsa -i /root/id_rsa alice@127.0.0.1 id
ssh $SSHO -o BatchMode=yes -o KexAlgorithms=diffie-hellman-group1-sha1 alice@127.0.0.1 id
ssh $SSHO -o BatchMode=yes -o Ciphers=3des-cbc alice@127.0.0.1 id
pause
# Grace time, protocol garbage, MaxStartups (idle connections held open).
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:22") or exit 1; sleep 5'
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:22") or exit 1; print $s "GET / HTTP/1.1\r\n\r\n"; sleep 1'
for i in 1 2 3 4 5 6; do
  perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:22") or exit 1; sleep 4' &
done
wait
pause
# Client alive timeout: the client is stopped while its session runs.
sshpass -p secret ssh $SSHO alice@127.0.0.1 'sleep 8' &
pause 3
pkill -STOP -x ssh
pause 4
pkill -CONT -x ssh
wait
pause
# A client that says goodbye before key exchange (SSH_MSG_DISCONNECT in a
# plain packet, as scanners do): reason 11 (by application) and 14.
for reason in 11 14; do
  perl -MIO::Socket::INET -e '
    $s = IO::Socket::INET->new("127.0.0.1:22") or exit 1;
    print $s "SSH-2.0-capture\r\n"; $v = <$s>;
    $text = $ARGV[0] == 11 ? "Bye Bye" : "No supported authentication methods available";
    $payload = pack("C N N/a* N/a*", 1, $ARGV[0], $text, "");
    $pad = 8 - ((5 + length $payload) % 8); $pad += 8 if $pad < 4;
    print $s pack("N C", 1 + length($payload) + $pad, $pad) . $payload . ("\0" x $pad);
    sleep 1' "$reason"
done
pause
# PAM: a password about to expire, a bad limits.conf item, pam_succeed_if.
chage -d "$(date -d '-85 days' +%F)" -M 90 -W 7 alice
sshpass -p secret ssh $SSHO -o PreferredAuthentications=password alice@127.0.0.1 true
echo "* - nofiles 100" >/etc/security/limits.d/98-typo.conf
sshpass -p bobpw ssh $SSHO -o PreferredAuthentications=password bob@127.0.0.1 true
rm -f /etc/security/limits.d/98-typo.conf
cp /etc/pam.d/sshd /root/pam-sshd
sed -i '1i auth required pam_succeed_if.so uid >= 1000' /etc/pam.d/sshd
sshpass -p x ssh $SSHO -o PreferredAuthentications=password -o NumberOfPasswordPrompts=1 root@127.0.0.1 true
cp /root/pam-sshd /etc/pam.d/sshd
# A second sshd at LogLevel DEBUG1: OpenSSH 9.2 logs no "Transferred",
# "subsystem request" or "Timeout before authentication" line even there
# (the library's rules for them are older OpenSSH's). Its "Close session"
# line (VERBOSE) comes in some runs only: the session's process may exit
# before its last message reaches the log.
/usr/sbin/sshd -p 2222 -o LogLevel=DEBUG1 -o PidFile=/run/sshd-debug.pid
pause
printf 'ls\nquit\n' | sftp $SSHO -P 2222 -b - -i /root/id_ed bob@127.0.0.1 >/dev/null
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:2222") or exit 1; sleep 5'
kill "$(cat /run/sshd-debug.pid)"
pause
pkill -HUP -x sshd
pause
pkill -x sshd

# --- shadow, su, sudo ----------------------------------------------------------
step su-sudo
usermod -p '*' bob
usermod -p "$(openssl passwd -6 bobpw 2>/dev/null || echo '!')" bob
runuser -u bob -- su alice -c true </dev/null
cp /etc/hosts /root/hosts && printf '127.0.0.1 localhost\n' >/etc/hosts
sudo -u alice true
cp /root/hosts /etc/hosts
runuser -u bob -- sudo -S true </dev/null
# login's five tries (LOGIN_RETRIES) with wrong passwords on one terminal.
(sleep 2; printf 'bad1\n'
 for i in 2 3 4 5; do sleep 5; printf 'alice\n'; sleep 1; printf 'bad%s\n' "$i"; done
 sleep 5) | timeout 45 script -qec "login alice" /dev/null >/dev/null

# --- dovecot: an IMAP client in IDLE that goes away ---------------------------
step dovecot
dovecot
pause 2
perl -MIO::Socket::INET -e '
  $s = IO::Socket::INET->new("127.0.0.1:143") or exit 1; $l = <$s>;
  print $s "a LOGIN bob bobpw\r\n"; while (<$s>) { last if /^a / }
  print $s "b SELECT INBOX\r\n"; while (<$s>) { last if /^b / }
  print $s "c IDLE\r\n"; $l = <$s>; sleep 1'
pause
doveadm stop 2>/dev/null || pkill -x dovecot
pause

# --- anacron ---------------------------------------------------------------
step anacron
mkdir -p /root/anacron-spool
cat >/root/anacrontab <<'CONF'
SHELL=/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
1	0	capture.daily	echo daily job
7	0	capture.weekly	/bin/false
CONF
anacron -f -s -n -d -t /root/anacrontab -S /root/anacron-spool 2>/dev/null
anacron -s -d -t /root/anacrontab -S /root/anacron-spool 2>/dev/null

# --- xinetd ----------------------------------------------------------------
step xinetd
cat >/etc/xinetd.d/capture <<'CONF'
service capture-date
{
	type		= UNLISTED
	port		= 7013
	socket_type	= stream
	protocol	= tcp
	wait		= no
	user		= nobody
	server		= /bin/date
	flags		= IPv4
	log_type	= SYSLOG daemon info
	log_on_success	= PID HOST DURATION EXIT
	log_on_failure	= HOST
}
CONF
cat >/etc/xinetd.d/capture-ftp <<'CONF'
service ftp
{
	socket_type	= stream
	protocol	= tcp
	wait		= no
	user		= root
	server		= /usr/sbin/in.ftpd
	server_args	= -l -l
	flags		= IPv4
	log_type	= SYSLOG daemon info
	log_on_success	= PID HOST DURATION EXIT
}
CONF
useradd -d /srv/ftp -s /usr/sbin/nologin ftp 2>/dev/null; mkdir -p /srv/ftp
xinetd -pidfile /run/xinetd.pid
pause 2
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:7013") or exit 1; print <$s>' >/dev/null
curl -s --max-time 5 -u alice:secret ftp://127.0.0.1/ >/dev/null
curl -s --max-time 5 -u alice:wrong ftp://127.0.0.1/ >/dev/null
curl -s --max-time 5 -u root:x ftp://127.0.0.1/ >/dev/null
curl -s --max-time 5 ftp://127.0.0.1/ >/dev/null
pause 2
pause
kill "$(cat /run/xinetd.pid)"
pause

# --- BIND 9 ----------------------------------------------------------------
step named
cat >/etc/bind/db.capture <<'CONF'
$TTL 300
@	IN SOA	ns1.capture.example. hostmaster.capture.example. ( 2026120401 3600 600 86400 300 )
	IN NS	ns1.capture.example.
ns1	IN A	127.0.0.1
www	IN A	192.0.2.80
CONF
cat >/etc/bind/named.conf.local <<'CONF'
zone "capture.example" { type master; file "/etc/bind/db.capture"; allow-transfer { 127.0.0.2; }; };
zone "closed.example" { type master; file "/etc/bind/db.capture"; allow-query { none; }; };
CONF
cat >/etc/bind/named.conf.options <<'CONF'
options {
	directory "/var/cache/bind";
	listen-on { 127.0.0.1; };
	listen-on-v6 { none; };
	recursion yes;
	allow-recursion { 127.0.0.1; };
	dnssec-validation no;
};
CONF
chown bind:bind /run/named /var/cache/bind
named -u bind
pause 3
dig +short @127.0.0.1 www.capture.example
dig +short @127.0.0.1 www.closed.example
dig +short +tries=1 +time=3 @127.0.0.1 www.debian.org
rm -rf /var/cache/bind2; mkdir -p /var/cache/bind2 /run/named2 && chown bind:bind /var/cache/bind2 /run/named2
cat >/etc/bind/named2.conf <<'CONF'
options {
	directory "/var/cache/bind2";
	pid-file "/run/named2/named.pid";
	listen-on { 127.0.0.2; };
	listen-on-v6 { none; };
	recursion no;
	dnssec-validation no;
	transfer-source 127.0.0.2;
	notify-source 127.0.0.2;
};
controls { };
zone "capture.example" { type slave; masters { 127.0.0.1; }; file "capture.example.db"; };
CONF
named -u bind -c /etc/bind/named2.conf
pause 4
rndc -s 127.0.0.1 reload 2>/dev/null || kill -HUP "$(cat /run/named/named.pid)"
pause 2
kill "$(cat /run/named2/named.pid)" "$(cat /run/named/named.pid)"
pause 2

# --- nginx cannot bind -------------------------------------------------------
step nginx
sed -i 's|^\s*error_log .*|error_log syslog:server=unix:/dev/log,nohostname;|' /etc/nginx/nginx.conf
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(Listen => 5, LocalAddr => "0.0.0.0:80", ReuseAddr => 1) or exit 1; sleep 4' &
pause
nginx -g 'daemon on;'
wait

# --- postfix delivery agents -------------------------------------------------
step postfix
postconf -e inet_interfaces=loopback-only mydestination='deb12.example, deb12, localhost' \
  myhostname=deb12.example virtual_mailbox_domains=virt.example \
  virtual_mailbox_base=/var/mail/vhosts virtual_mailbox_maps=hash:/etc/postfix/vmailbox \
  virtual_uid_maps=static:5000 virtual_gid_maps=static:5000 \
  transport_maps=hash:/etc/postfix/transport maximal_queue_lifetime=0 bounce_queue_lifetime=0 \
  smtpd_tls_cert_file=/etc/ssl/certs/ssl-cert-snakeoil.pem \
  smtpd_tls_key_file=/etc/ssl/private/ssl-cert-snakeoil.key smtpd_tls_security_level=may \
  smtp_tls_security_level=may smtp_tls_loglevel=1 smtpd_tls_loglevel=1 2>/dev/null
mkdir -p /var/mail/vhosts/virt.example && chown -R 5000:5000 /var/mail/vhosts
mkdir -p /var/mail/vhosts/virt.example/locked && chown root:root /var/mail/vhosts/virt.example/locked && chmod 700 /var/mail/vhosts/virt.example/locked
echo '"|exit 75"' >/home/bob/.forward && chown bob:bob /home/bob/.forward
postconf -e anvil_status_update_time=5s smtpd_client_event_limit_exceptions= 2>/dev/null
printf 'carol@virt.example virt.example/carol/\ndave@virt.example virt.example/locked/dave/\n' >/etc/postfix/vmailbox
mkdir -p /var/mail/vhosts/virt.example/locked
cat >/etc/postfix/transport <<'CONF'
far.example	smtp:[127.0.0.2]:2525
lm.example	lmtp:unix:/run/no-such-lmtp
pipe.example	capturepipe:
pipedefer.example	capturedefer:
pipebounce.example	capturebounce:
loop.example	smtp:[127.0.0.1]:10025
CONF
postmap /etc/postfix/vmailbox /etc/postfix/transport
printf '#!/bin/sh\ncat >/dev/null\nexit "$1"\n' >/usr/local/bin/capture-exit
chmod 755 /usr/local/bin/capture-exit
sed -i '/^capturepipe/,$d' /etc/postfix/master.cf
cat >>/etc/postfix/master.cf <<'CONF'
capturepipe unix - n n - - pipe
  flags=q user=nobody argv=/bin/sh -c cat>/dev/null
capturedefer unix - n n - - pipe
  flags=q user=nobody argv=/usr/local/bin/capture-exit 75
capturebounce unix - n n - - pipe
  flags=q user=nobody argv=/usr/local/bin/capture-exit 67
127.0.0.1:10025 inet n - n - - smtpd
  -o cleanup_service_name=cleanup2
cleanup2 unix n - n - 0 cleanup
  -o virtual_alias_maps=inline:{bob@loop.example=carol@virt.example}
CONF
postfix start
pause 2
for rcpt in bob@far.example bob@lm.example bob@pipe.example carol@virt.example bob@loop.example nobody@virt.example \
    x@pipedefer.example x@pipebounce.example dave@virt.example bob@deb12.example; do
  printf 'Subject: capture\n\nbody\n' | sendmail -f alice@deb12.example "$rcpt"
done
pause 5
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:25") or exit 1; $l = <$s>; print $s "EHLO capture\r\n"; sleep 1'
postqueue -f
pause 6
pause 5
postsuper -d ALL deferred
postfix stop
pause 2

# --- a client whose address does not map back (reverse and forward lookups
# disagree: /etc/hosts with "multi off") --------------------------------------
step dns-mismatch
cp /etc/hosts /root/hosts && cp /etc/host.conf /root/host.conf
printf '127.0.0.1 localhost\n127.0.1.1 deb12.example deb12\n127.0.0.9 fakehost.example\n127.0.0.5 fakehost.example\n' >/etc/hosts
echo 'multi off' >/etc/host.conf
/usr/sbin/sshd -p 2223 -o UseDNS=yes -o PidFile=/run/sshd-dns.pid
postfix start
pause 2
ssh $SSHO -p 2223 -b 127.0.0.5 -o BatchMode=yes alice@127.0.0.1 true
perl -MIO::Socket::INET -e '
  $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1:25", LocalAddr => "127.0.0.5") or exit 1;
  $l = <$s>; print $s "EHLO capture\r\n"; while (<$s>) { last if /^250 / } print $s "QUIT\r\n"; $l = <$s>'
pause 2
kill "$(cat /run/sshd-dns.pid)"
postfix stop
cp /root/hosts /etc/hosts && cp /root/host.conf /etc/host.conf
pause

# --- SMTP AUTH with a wrong password (postfix with Dovecot SASL) -----------------
step sasl
cat >/etc/dovecot/conf.d/99-capture-sasl.conf <<'CONF'
auth_mechanisms = plain login
service auth {
  unix_listener /var/spool/postfix/private/auth {
    mode = 0660
    user = postfix
    group = postfix
  }
}
CONF
dovecot
postconf -e smtpd_sasl_type=dovecot smtpd_sasl_path=private/auth smtpd_sasl_auth_enable=yes 2>/dev/null
postfix start
pause 2
perl -MIO::Socket::INET -e '
  $s = IO::Socket::INET->new("127.0.0.1:25") or exit 1;
  $l = <$s>; print $s "EHLO capture\r\n"; while (<$s>) { last if /^250 / }
  print $s "AUTH PLAIN $ARGV[0]\r\n"; $l = <$s>; print $s "QUIT\r\n"; $l = <$s>' \
  "$(printf '\0bob\0wrong' | base64)"
pause 2
postfix stop
postconf -e smtpd_sasl_auth_enable=no 2>/dev/null
doveadm stop 2>/dev/null || pkill -x dovecot
rm -f /etc/dovecot/conf.d/99-capture-sasl.conf
pause

# --- cron: a job's output, and an MTA that fails ----------------------------------
step cron
cp /usr/sbin/sendmail /root/sendmail.real
printf '#!/bin/sh\ncat >/dev/null\nexit 1\n' >/usr/sbin/sendmail
echo '* * * * * root echo capture output' >/etc/cron.d/capture-mail
cron
i=0
while [ $i -lt 75 ] && ! grep -q ' MAIL (' /var/log/all.log; do sleep 1; i=$((i + 1)); done
pkill -x cron
rm -f /etc/cron.d/capture-mail
cp /root/sendmail.real /usr/sbin/sendmail

# --- kernel: a bridge and a veth pair in this network namespace --------------
step kernel
dmesg --time-format iso >/root/dmesg-before 2>/dev/null
ip link add capbr0 type bridge
ip link add capveth0 type veth peer name capveth1
ip link set capveth0 master capbr0
ip link set capbr0 up
ip link set capveth0 up
ip link set capveth1 up
ip link set capveth0 promisc on
pause 3
# dhclient on the bridge's far end, no DHCP server anywhere: DHCPv4 gives
# up, DHCPv6 solicits.
printf 'timeout 6;\nretry 60;\n' >/root/dhclient.conf
timeout 15 dhclient -1 -d -cf /root/dhclient.conf -lf /root/dhclient.leases -pf /run/dhclient-cap.pid capveth1 >/dev/null 2>&1
timeout 5 dhclient -6 -1 -d -cf /root/dhclient.conf -lf /root/dhclient6.leases -pf /run/dhclient6-cap.pid capveth1 >/dev/null 2>&1
ip link set capveth1 down
ip link set capveth0 promisc off
ip link del capveth0
ip link del capbr0
pause
dmesg --time-format iso 2>/dev/null | grep -vxFf /root/dmesg-before | grep -E ' (cap|capbr0|capveth)' >/root/dmesg-new

logger -t capture "capture run ends"
pause
kill "$(cat /run/rsyslogd.pid)"
pause
# The kernel's records of the bridge step, one syslog line each (program
# kernel, the way rsyslog's imklog would write them).
while IFS= read -r rec; do
  msg=${rec#* }
  printf '%s deb12 kernel: %s\n' "$(LC_ALL=C date -d "${rec%% *}" '+%b %e %H:%M:%S')" "$msg"
done </root/dmesg-new >>/var/log/all.log
