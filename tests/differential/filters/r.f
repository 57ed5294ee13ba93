HOST=h1
MESSAGE=s bob 12
PROGRAM=app
LEGACY_MSGHDR=app: 
0=ap
1=a
2=p
.classifier.class=s
.classifier.rule_id=s
n=bob 12
TAGS=.classifier.s

HOST=h1
MESSAGE=s al
PROGRAM=app
LEGACY_MSGHDR=app: 
0=ap
1=a
2=p
.classifier.class=s
.classifier.rule_id=s
n=al
TAGS=.classifier.s

HOST=h1
MESSAGE=c bob 12
PROGRAM=app
LEGACY_MSGHDR=app: 
0=ap
1=a
2=p
.classifier.class=c
.classifier.rule_id=c
user=bob
n=12
aa=2
zz=1
TAGS=.classifier.c

HOST=h1
MESSAGE=c al 3
PROGRAM=app
LEGACY_MSGHDR=app: 
0=ap
1=a
2=p
.classifier.class=c
.classifier.rule_id=c
user=al
n=3
TAGS=.classifier.c

Bail out! ERROR:../../lib/logmsg/logmsg.c:714:log_msg_set_value_indirect_with_type: assertion failed: (!log_msg_is_write_protected(self))
