#!/bin/sh
# Runs INSIDE the Debian 12 root of variant b (capture-debian12.sh b): the
# same kind of server with syslog-ng instead of rsyslog, exim4 instead of
# postfix, fail2ban watching sshd, and other steps than variant a (other
# account changes, refused and throttled logins, reloads, timeouts, a
# chrony server and client, FTP protocol logging). Everything ends up in
# /var/log/all.log. Steps that fail are normal: nothing here stops on an error.
set +u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C
step() { echo "== $*" >&2; }
pause() { sleep "${1:-1}"; }
typed() { (sleep 1; printf '%s\n' "$1") | timeout 15 script -qec "$2" /dev/null; }

# --- a fresh start when the root was used before (nothing logs yet) ------
for u in alice bob mallory erin frank svc2; do userdel -r "$u" 2>/dev/null; done
for g in alice bob mallory erin frank svc2 devs2 sysgrp staff2 team; do groupdel "$g" 2>/dev/null; done
rm -rf /etc/cron.d/capture* /var/spool/cron/crontabs/* /var/mail/* /var/log/all.log
rm -f /var/spool/cron/atjobs/[!.]* /var/lib/fail2ban/fail2ban.sqlite3
rm -rf /var/spool/exim4/input/* /var/spool/exim4/msglog/*
printf '127.0.0.1 localhost\n127.0.1.1 deb12.example deb12\n' >/etc/hosts
mkdir -p /run/lock /run/apache2 /run/sshd /run/fail2ban /run/dovecot /var/run/vsftpd/empty /srv/ftp

# --- configuration -----------------------------------------------------
cat >/etc/syslog-ng/syslog-ng.conf <<'EOF'
@version: 3.38
options { chain-hostnames(no); use-dns(no); use-fqdn(no); stats_freq(0); };
source s_local { unix-dgram("/dev/log"); internal(); };
destination d_all { file("/var/log/all.log"); };
log { source(s_local); destination(d_all); };
EOF

cat >/etc/exim4/exim4.conf.localmacros <<'EOF'
log_file_path = syslog
syslog_duplication = false
EOF
sed -i "s/^dc_local_interfaces=.*/dc_local_interfaces='127.0.0.1'/; s/^dc_other_hostnames=.*/dc_other_hostnames='deb12.example'/" \
  /etc/exim4/update-exim4.conf.conf
update-exim4.conf

cat >/etc/fail2ban/fail2ban.local <<'EOF'
[Definition]
logtarget = SYSLOG
EOF
cat >/etc/fail2ban/jail.local <<'EOF'
[DEFAULT]
ignoreself = false
ignoreip =
banaction = dummy
backend = polling
[sshd]
enabled = true
logpath = /var/log/all.log
maxretry = 3
findtime = 600
bantime = 20
EOF

cat >/etc/vsftpd.conf <<'EOF'
listen=YES
background=YES
anonymous_enable=YES
anon_root=/srv/ftp
local_enable=YES
write_enable=YES
syslog_enable=YES
xferlog_enable=YES
log_ftp_protocol=YES
pam_service_name=vsftpd
secure_chroot_dir=/var/run/vsftpd/empty
EOF
echo "public file" >/srv/ftp/readme.txt

cat >/etc/rsyncd.conf <<'EOF'
pid file = /run/rsyncd.pid
[pub]
  path = /srv/ftp
  read only = yes
[closed]
  path = /srv/ftp
  hosts deny = 127.0.0.1
[broken]
  path = /nonexistent/dir
[ro]
  path = /srv/ftp
  read only = yes
  uid = nobody
EOF

cat >/etc/chrony/server.conf <<'EOF'
port 11123
cmdport 0
local stratum 8
allow 127.0.0.1
pidfile /run/chrony-server.pid
driftfile /var/lib/chrony/server.drift
EOF
cat >/etc/chrony/chrony.conf <<'EOF'
server 127.0.0.1 port 11123 iburst minpoll 0 maxpoll 1
driftfile /var/lib/chrony/chrony.drift
makestep 0.1 -1
EOF

sed -i 's|^\s*error_log .*|error_log syslog:server=unix:/dev/log,nohostname warn;|' /etc/nginx/nginx.conf
sed -i 's|access_log .*|access_log /var/log/nginx/access.log;|' /etc/nginx/nginx.conf
cat >/etc/nginx/sites-enabled/default <<'EOF'
server {
  listen 80 default_server;
  root /var/www/html;
  client_max_body_size 1k;
  location /slow { proxy_pass http://127.0.0.1:9000; proxy_read_timeout 1s; }
  location /gone { proxy_pass http://127.0.0.1:9001; }
  location /secret { auth_basic "x"; auth_basic_user_file /etc/nginx/htpasswd; }
}
EOF
echo 'alice:$apr1$abc$NotARealHashAtAll0000.' >/etc/nginx/htpasswd
sed -i 's|^ErrorLog .*|ErrorLog syslog:local1|; s|^LogLevel .*|LogLevel warn|' /etc/apache2/apache2.conf
echo "Listen 8080" >/etc/apache2/ports.conf
cat >/etc/apache2/sites-enabled/000-default.conf <<'EOF'
<VirtualHost *:8080>
  DocumentRoot /var/www/html
  <Location /intranet>
    Require ip 10.0.0.0/8
  </Location>
  ScriptAlias /cgi-bin/ /usr/lib/cgi-bin/
</VirtualHost>
EOF

cat >>/etc/ssh/sshd_config <<'EOF'
MaxAuthTries 2
PermitRootLogin no
DenyUsers mallory
EOF
cat >/etc/sudoers.d/capture <<'EOF'
alice ALL=(ALL) /usr/bin/id, /usr/bin/whoami
bob ALL=(root) NOPASSWD: /usr/bin/true
EOF
chmod 440 /etc/sudoers.d/capture
rm -f /etc/sudoers.d/alice /etc/security/limits.d/99-too-many.conf

# --- daemons -----------------------------------------------------------
step start daemons
syslog-ng --no-caps -p /run/syslog-ng.pid
pause
ssh-keygen -A >/dev/null
/usr/sbin/sshd
cron
atd
exim4 -bd -q30m
dovecot
vsftpd
rsync --daemon
chronyd -x -f /etc/chrony/server.conf
chronyd -x
nginx
apache2ctl start
python3 -c 'import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 9000)); s.listen(5); time.sleep(40)' &
fail2ban-client start >/dev/null
pause 3

# --- accounts ----------------------------------------------------------
step accounts
groupadd -r sysgrp
groupadd team
useradd -m -s /bin/bash -U alice
useradd -m -s /bin/bash bob
useradd -m mallory
useradd -m -G team erin
useradd -r -M -s /usr/sbin/nologin svc2
echo 'alice:alicepw' | chpasswd
echo 'bob:bobpw' | chpasswd
echo 'mallory:mallorypw' | chpasswd
echo 'root:rootpw' | chpasswd
printf 'frank:frankpw:2001:2001:Frank:/home/frank:/bin/sh\n' | newusers
usermod -e 2030-01-01 erin
usermod -u 3000 erin
usermod -s /bin/sh erin
usermod -G team,sysgrp bob
usermod -aG team alice
chsh -s /bin/bash frank
chage -d 0 frank
chage -m 1 -M 60 bob
passwd -d erin
passwd -S alice >/dev/null
groupmod -n staff2 team
gpasswd -A bob staff2
gpasswd -a frank staff2
gpasswd -r staff2
groupdel sysgrp
userdel -r erin
userdel nosuchuser2
groupadd alice
usermod -l alice2 nosuchuser2
pause

# --- ssh and fail2ban ------------------------------------------------------
step ssh
SSHO="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
# shellcheck disable=SC2086
sshpass -p alicepw ssh $SSHO alice@127.0.0.1 true
# shellcheck disable=SC2086
sshpass -p mallorypw ssh $SSHO mallory@127.0.0.1 true
# shellcheck disable=SC2086
sshpass -p rootpw ssh $SSHO root@127.0.0.1 true
# shellcheck disable=SC2086
sshpass -p wrong ssh $SSHO -o NumberOfPasswordPrompts=3 bob@127.0.0.1 true
# shellcheck disable=SC2086
sshpass -p wrong ssh $SSHO -o NumberOfPasswordPrompts=3 ghost@127.0.0.1 true
# shellcheck disable=SC2086
sshpass -p frankpw ssh $SSHO frank@127.0.0.1 true
ssh-keygen -q -t ed25519 -N '' -f /root/id_b
# shellcheck disable=SC2086
ssh $SSHO -i /root/id_b -o BatchMode=yes -o PasswordAuthentication=no alice@127.0.0.1 true
pause 6
fail2ban-client status sshd >/dev/null
kill -HUP "$(cat /run/sshd.pid)"
pause 2
# shellcheck disable=SC2086
sshpass -p alicepw ssh $SSHO -t alice@127.0.0.1 'exit 0' </dev/null
pause 18

# --- su, sudo, login ------------------------------------------------------
step su sudo login
(sleep 1; printf 'rootpw\n') | runuser -u alice -- timeout 15 script -qec "su - -c true" /dev/null
su -s /bin/sh svc2 -c true
su - frank -c true
typed alicepw "runuser -u alice -- sudo -k /usr/bin/whoami"
typed alicepw "runuser -u alice -- sudo -k /usr/bin/cat /etc/shadow"
typed alicepw "runuser -u alice -- sudo -k -l"
runuser -u bob -- sudo -n /usr/bin/true
runuser -u bob -- sudo -n /usr/bin/id
typed alicepw "runuser -u alice -- sudoedit /etc/motd"
typed rootpw "login root"
timeout 5 script -qec "login -f alice" /dev/null </dev/null
pause

# --- cron and at -------------------------------------------------------------
step cron at
printf 'MAILTO=alice\n* * * * * bob echo output from bob\n* * * * * root exit 3\n' >/etc/cron.d/capture-b
echo '* * * * * echo hello' | runuser -u alice -- crontab -
echo 'echo at-b; exit 1' | runuser -u bob -- at now
echo 'true' | batch
echo 'true' | at now + 5 hours
atrm "$(atq | awk 'NR==1 {print $1}')"
pause 65
touch /etc/crontab
pause 60
runuser -u alice -- crontab -r

# --- mail (exim4) ----------------------------------------------------------------
step mail
echo "hello" | mail -s "b1" alice
echo "hello" | mail -s "b2" nobody-here
printf 'Subject: smtp b\r\n\r\nhi\r\n' >/tmp/msg.txt
curl -s --url smtp://127.0.0.1 --mail-from bob@deb12.example --mail-rcpt alice@deb12.example -T /tmp/msg.txt
curl -s --url smtp://127.0.0.1 --mail-from x@example.org --mail-rcpt victim@example.org -T /tmp/msg.txt
curl -s --url smtp://127.0.0.1 --mail-from x@example.org --mail-rcpt ghost@deb12.example -T /tmp/msg.txt
timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/25; printf "HELO x\r\nMAIL FROM:<a@b>\r\nQUIT\r\n" >&3; sleep 1' 2>/dev/null
timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/25; sleep 1' 2>/dev/null
pause 3
exim4 -qff
pause 2

# --- dovecot -----------------------------------------------------------------------
step dovecot
curl -s imap://127.0.0.1/INBOX -u alice:alicepw >/dev/null
curl -s imap://127.0.0.1/ -u alice:nope >/dev/null
curl -s imap://127.0.0.1/ -u ghost:nope >/dev/null
curl -s pop3://127.0.0.1/1 -u alice:alicepw >/dev/null
doveadm reload
pause 2
timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/110; printf "USER alice\r\nQUIT\r\n" >&3; sleep 1' 2>/dev/null

# --- ftp -------------------------------------------------------------------------------
step ftp
curl -s ftp://127.0.0.1/readme.txt >/dev/null
curl -s -T /etc/hostname ftp://127.0.0.1/upload.txt
curl -s ftp://127.0.0.1/ -u bob:bobpw >/dev/null
curl -s -Q "RNFR .bashrc" -Q "RNTO .bashrc.old" ftp://127.0.0.1/ -u bob:bobpw >/dev/null
curl -s ftp://127.0.0.1/ -u bob:wrong >/dev/null
curl -s ftp://127.0.0.1/ -u mallory:mallorypw >/dev/null

# --- rsync --------------------------------------------------------------------------------
step rsync
rsync rsync://127.0.0.1/pub/ >/dev/null
rsync rsync://127.0.0.1/closed/ 2>/dev/null
rsync rsync://127.0.0.1/broken/ 2>/dev/null
rsync -a /etc/hostname rsync://127.0.0.1/ro/ 2>/dev/null
rsync -a rsync://127.0.0.1/ro/ /tmp/ro/

# --- web ------------------------------------------------------------------------------------
step web
head -c 5000 /dev/zero | curl -s -X POST --data-binary @- http://127.0.0.1/ >/dev/null
curl -s http://127.0.0.1/slow >/dev/null
curl -s http://127.0.0.1/gone >/dev/null
curl -s -u alice:guess http://127.0.0.1/secret/ >/dev/null
curl -s -u eve:guess http://127.0.0.1/secret/ >/dev/null
curl -s http://127.0.0.1:8080/intranet >/dev/null
curl -s http://127.0.0.1:8080/cgi-bin/nothing.cgi >/dev/null
curl -s "http://127.0.0.1:8080/%" >/dev/null
nginx -s reopen
apache2ctl restart
pause 2

# --- chrony ----------------------------------------------------------------------------------
step chrony
pause 6
chronyc -n sources >/dev/null
chronyc -n burst 2/4 >/dev/null

# --- stop --------------------------------------------------------------------------------------
step stop
fail2ban-client stop >/dev/null
apache2ctl graceful-stop
nginx -s stop
exim4 -bp >/dev/null
pkill -x exim4
doveadm stop 2>/dev/null
for p in vsftpd rsync chronyd atd cron sshd; do pkill -x "$p"; done
pause 3
kill "$(cat /run/syslog-ng.pid)"
pause
