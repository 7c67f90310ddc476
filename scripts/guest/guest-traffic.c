// SPDX-License-Identifier: GPL-2.0
/*
 * guest-traffic: move checked data over TCP and UDP, IPv4 and IPv6, inside
 * the QEMU guest, over loopback and across a veth pair into a second
 * network namespace, so that NET_RX/NET_TX (and the timers behind TCP) do
 * real work in both protocol stacks.
 *
 * On the veth paths a packet socket (ETH_P_ALL) on the receiving end of the
 * pair counts the frames it sees, so the taps of dev_queue_xmit_nit() and
 * the packet socket receive path run too.
 *
 * Every record carries a magic, a sequence number, a length and a checksum
 * of its payload, and the payload is a function of the sequence number, so
 * the receiver checks every byte.  TCP must lose nothing and deliver in
 * order; UDP loss is reported, not failed, but a corrupt or duplicated
 * datagram fails.
 *
 * Usage: guest-traffic [-t SECONDS] [-p loopback|veth|loopback6|veth6|all] [-x]
 * (all: the four paths, one after the other).  -x, for kernels with bridging
 * and qdiscs (the campaign configuration): on the veth paths the receiving
 * end of the pair is a port of a bridge that holds the address, and the
 * sending end's root qdisc is replaced while the data flows (fq_codel,
 * then sfq); and every path runs through netfilter: an inet table with
 * input and output base chains of the host's namespace, each with a
 * counter rule, whose packet counts are read back at the end (nonzero,
 * or the check fails); a kernel that cannot do any of this fails.
 * Prints one "TRAFFIC path=... proto=..." line per path and protocol and a
 * final "TRAFFIC-RESULT PASS|FAIL ..." line; exits 0 on pass, 1 on failure,
 * 2 on bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAGIC		0x5eed50f7u
#define TCP_PORT	5001
#define UDP_PORT	5002
#define TCP_PAYLOAD	4000
#define UDP_PAYLOAD	1200
#define HOST_ADDR	"10.99.0.1"
#define PEER_ADDR	"10.99.0.2"
#define HOST_ADDR6	"fd99::1"
#define PEER_ADDR6	"fd99::2"

/* the address family of the path being run (children inherit it) */
static int use_v6;
/* -x: a bridge on the receiving side, qdisc changes on the sending side */
static int extended;

struct rec_hdr {
	uint32_t magic;
	uint32_t seq;
	uint32_t len;
	uint32_t csum;
};

/* What the receiver saw, sent back to the parent through a pipe. */
struct rx_stats {
	uint64_t tcp_bytes;	/* payload bytes of good records */
	uint64_t tcp_records;
	uint64_t tcp_bad;	/* bad magic, wrong sequence or checksum */
	uint64_t udp_unique;	/* good datagrams, each sequence counted once */
	uint64_t udp_dup;
	uint64_t udp_bad;
	uint64_t pkt_frames;	/* frames the packet socket saw (veth paths) */
	uint64_t pkt_bytes;
};

struct tx_stats {
	uint64_t bytes;		/* payload bytes */
	uint64_t records;
};

static void fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "guest-traffic: error: ");
	vfprintf(stderr, fmt, ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint8_t payload_byte(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

static uint32_t checksum(const uint8_t *p, uint32_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	uint32_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void fill_record(uint8_t *buf, uint32_t seq, uint32_t len)
{
	struct rec_hdr *h = (struct rec_hdr *)buf;
	uint32_t i;

	for (i = 0; i < len; i++)
		buf[sizeof(*h) + i] = payload_byte(seq, i);
	h->magic = MAGIC;
	h->seq = seq;
	h->len = len;
	h->csum = checksum(buf + sizeof(*h), len);
}

/* Return 1 when a record (header + payload in buf) is intact. */
static int record_ok(const uint8_t *buf, uint32_t want_len)
{
	const struct rec_hdr *h = (const struct rec_hdr *)buf;
	uint32_t i;

	if (h->magic != MAGIC || h->len != want_len)
		return 0;
	if (checksum(buf + sizeof(*h), h->len) != h->csum)
		return 0;
	for (i = 0; i < h->len; i++)
		if (buf[sizeof(*h) + i] != payload_byte(h->seq, i))
			return 0;
	return 1;
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fatal("write to pipe");
		p += n;
		len -= n;
	}
}

static void read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fatal("read from pipe (child died?)");
		p += n;
		len -= n;
	}
}

/* --- interface set-up: ioctl for addresses, rtnetlink for the veth pair */

static void if_up(const char *name, const char *addr)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		fatal("socket for ioctl");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (addr) {
		sin->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &sin->sin_addr);
		if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
			fatal("set address %s on %s", addr, name);
		inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
		if (ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
			fatal("set netmask on %s", name);
	}
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		fatal("get flags of %s", name);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		fatal("bring %s up", name);
	close(fd);
}

/* SIOCSIFADDR on an AF_INET6 socket takes this (linux/ipv6.h's in6_ifreq) */
struct v6_ifreq {
	struct in6_addr addr;
	uint32_t prefixlen;
	int ifindex;
};

/* Give NAME an IPv6 address, usable at once: duplicate address detection
 * would keep it tentative for a second or more, so it is off for NAME. */
static void if_addr6(const char *name, const char *addr)
{
	struct v6_ifreq r = { .prefixlen = 64 };
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/accept_dad", name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "0\n", 2) != 2)
		fatal("turn off DAD on %s (%s; is CONFIG_IPV6 set, /proc mounted?)", name, path);
	close(fd);
	r.ifindex = if_nametoindex(name);
	if (!r.ifindex)
		fatal("no interface %s", name);
	inet_pton(AF_INET6, addr, &r.addr);
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd < 0)
		fatal("AF_INET6 socket for ioctl");
	if (ioctl(fd, SIOCSIFADDR, &r) < 0)
		fatal("set address %s on %s", addr, name);
	close(fd);
}

struct nlreq {
	struct nlmsghdr n;
	struct ifinfomsg i;
	char buf[512];
};

static struct rtattr *nla_put(struct nlmsghdr *n, int type, const void *data,
			      int len)
{
	struct rtattr *rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void nla_end(struct nlmsghdr *n, struct rtattr *nest)
{
	nest->rta_len = (char *)n + n->nlmsg_len - (char *)nest;
}

/* Send one rtnetlink request and read its ack; on an error, stop with
 * errno set from it and WHAT (a printf format) as the message. */
static void nl_talk(struct nlmsghdr *n, const char *what, ...)
{
	char reply[1024];
	struct nlmsgerr *err;
	ssize_t got;
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);

	if (fd < 0)
		fatal("netlink socket");
	if (send(fd, n, n->nlmsg_len, 0) < 0)
		fatal("netlink send");
	got = recv(fd, reply, sizeof(reply), 0);
	if (got < (ssize_t)NLMSG_LENGTH(sizeof(*err)))
		fatal("netlink reply");
	close(fd);
	err = NLMSG_DATA((struct nlmsghdr *)reply);
	if (((struct nlmsghdr *)reply)->nlmsg_type == NLMSG_ERROR && err->error) {
		char msg[256];
		va_list ap;

		va_start(ap, what);
		vsnprintf(msg, sizeof(msg), what, ap);
		va_end(ap);
		errno = -err->error;
		fatal("%s", msg);
	}
}

/* Start an RTM_NEWLINK request (FLAGS besides request and ack) in REQ. */
static void link_request(struct nlreq *req, int flags)
{
	memset(req, 0, sizeof(*req));
	req->n.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	req->n.nlmsg_type = RTM_NEWLINK;
	req->n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	req->i.ifi_family = AF_UNSPEC;
}

/* Start creating link NAME of KIND in REQ; returns the IFLA_LINKINFO
 * nest, still open for the kind's data. */
static struct rtattr *new_link(struct nlreq *req, const char *name, const char *kind)
{
	struct rtattr *linkinfo;

	link_request(req, NLM_F_CREATE | NLM_F_EXCL);
	nla_put(&req->n, IFLA_IFNAME, name, strlen(name) + 1);
	linkinfo = nla_put(&req->n, IFLA_LINKINFO, NULL, 0);
	nla_put(&req->n, IFLA_INFO_KIND, kind, strlen(kind));
	return linkinfo;
}

/* Create veth pair NAME <-> PEER with PEER moved into the netns of PID. */
static void make_veth(const char *name, const char *peer, pid_t pid)
{
	struct nlreq req;
	struct rtattr *linkinfo, *data, *peerinfo;
	struct ifinfomsg peer_ifi;
	uint32_t nspid = pid;

	linkinfo = new_link(&req, name, "veth");
	data = nla_put(&req.n, IFLA_INFO_DATA, NULL, 0);
	peerinfo = nla_put(&req.n, VETH_INFO_PEER, NULL, 0);
	/* the peer's attributes follow a struct ifinfomsg of its own */
	memset(&peer_ifi, 0, sizeof(peer_ifi));
	memcpy((char *)&req.n + req.n.nlmsg_len, &peer_ifi, sizeof(peer_ifi));
	req.n.nlmsg_len += NLMSG_ALIGN(sizeof(peer_ifi));
	nla_put(&req.n, IFLA_IFNAME, peer, strlen(peer) + 1);
	nla_put(&req.n, IFLA_NET_NS_PID, &nspid, sizeof(nspid));
	nla_end(&req.n, peerinfo);
	nla_end(&req.n, data);
	nla_end(&req.n, linkinfo);

	nl_talk(&req.n, "create veth %s/%s (is CONFIG_VETH set?)", name, peer);
}

/* --- nftables over raw netlink: table "gt" (inet), chains "in" and "out"
 * on the input and output hooks, one counter rule each */

static void nft_msg(char *buf, size_t *off, int type, int flags, int family)
{
	struct nlmsghdr *n = (struct nlmsghdr *)(buf + *off);
	struct nfgenmsg *g = NLMSG_DATA(n);
	static uint32_t seq;

	memset(n, 0, NLMSG_LENGTH(sizeof(*g)));
	n->nlmsg_len = NLMSG_LENGTH(sizeof(*g));
	n->nlmsg_type = type;
	n->nlmsg_flags = NLM_F_REQUEST | flags;
	n->nlmsg_seq = ++seq;
	g->nfgen_family = family;
	g->version = NFNETLINK_V0;
	g->res_id = htons(type == NFNL_MSG_BATCH_BEGIN || type == NFNL_MSG_BATCH_END ?
			  NFNL_SUBSYS_NFTABLES : 0);
}

static void nft_end(char *buf, size_t *off)
{
	*off += NLMSG_ALIGN(((struct nlmsghdr *)(buf + *off))->nlmsg_len);
}

#define NFT_TYPE(msg) ((NFNL_SUBSYS_NFTABLES << 8) | (msg))

static void nft_counting_chains(void)
{
	static char buf[4096];
	const char *chain[2] = { "in", "out" };
	const uint32_t hook[2] = { NF_INET_LOCAL_IN, NF_INET_LOCAL_OUT };
	const uint32_t prio = 0;
	size_t off = 0;
	int i, acks = 0, fd;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	nft_msg(buf, &off, NFNL_MSG_BATCH_BEGIN, 0, AF_UNSPEC);
	nft_end(buf, &off);
	nft_msg(buf, &off, NFT_TYPE(NFT_MSG_NEWTABLE), NLM_F_CREATE | NLM_F_ACK, NFPROTO_INET);
	nla_put((struct nlmsghdr *)(buf + off), NFTA_TABLE_NAME, "gt", 3);
	nft_end(buf, &off);
	for (i = 0; i < 2; i++) {
		struct nlmsghdr *n;
		struct rtattr *nest, *elem;
		uint32_t h = htonl(hook[i]);

		nft_msg(buf, &off, NFT_TYPE(NFT_MSG_NEWCHAIN), NLM_F_CREATE | NLM_F_ACK, NFPROTO_INET);
		n = (struct nlmsghdr *)(buf + off);
		nla_put(n, NFTA_CHAIN_TABLE, "gt", 3);
		nla_put(n, NFTA_CHAIN_NAME, chain[i], strlen(chain[i]) + 1);
		nest = nla_put(n, NFTA_CHAIN_HOOK | NLA_F_NESTED, NULL, 0);
		nla_put(n, NFTA_HOOK_HOOKNUM, &h, sizeof(h));
		nla_put(n, NFTA_HOOK_PRIORITY, &prio, sizeof(prio));
		nla_end(n, nest);
		nla_put(n, NFTA_CHAIN_TYPE, "filter", 7);
		nft_end(buf, &off);

		nft_msg(buf, &off, NFT_TYPE(NFT_MSG_NEWRULE),
			NLM_F_CREATE | NLM_F_APPEND | NLM_F_ACK, NFPROTO_INET);
		n = (struct nlmsghdr *)(buf + off);
		nla_put(n, NFTA_RULE_TABLE, "gt", 3);
		nla_put(n, NFTA_RULE_CHAIN, chain[i], strlen(chain[i]) + 1);
		nest = nla_put(n, NFTA_RULE_EXPRESSIONS | NLA_F_NESTED, NULL, 0);
		elem = nla_put(n, NFTA_LIST_ELEM | NLA_F_NESTED, NULL, 0);
		nla_put(n, NFTA_EXPR_NAME, "counter", 8);
		nla_end(n, elem);
		nla_end(n, nest);
		nft_end(buf, &off);
	}
	nft_msg(buf, &off, NFNL_MSG_BATCH_END, 0, AF_UNSPEC);
	nft_end(buf, &off);

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	if (fd < 0)
		fatal("netfilter netlink socket (is CONFIG_NF_TABLES set?)");
	if (sendto(fd, buf, off, 0, (struct sockaddr *)&sa, sizeof(sa)) != (ssize_t)off)
		fatal("send the nftables batch");
	while (acks < 5) {
		char reply[4096];
		ssize_t got = recv(fd, reply, sizeof(reply), 0);
		struct nlmsghdr *r;
		int left = got;

		if (got <= 0)
			fatal("nftables reply");
		for (r = (struct nlmsghdr *)reply; NLMSG_OK(r, left); r = NLMSG_NEXT(r, left)) {
			struct nlmsgerr *e = NLMSG_DATA(r);

			if (r->nlmsg_type != NLMSG_ERROR)
				continue;
			if (e->error) {
				errno = -e->error;
				fatal("nftables message %u of the batch", r->nlmsg_seq);
			}
			acks++;
		}
	}
	close(fd);
}

/* The packets the counter rule of chain NAME (table gt, inet) counted. */
static uint64_t nft_counted(const char *name)
{
	static char buf[256], reply[8192];
	size_t off = 0;
	struct nlmsghdr *n;
	uint64_t packets = 0;
	int fd, done = 0;

	nft_msg(buf, &off, NFT_TYPE(NFT_MSG_GETRULE), NLM_F_DUMP, NFPROTO_INET);
	n = (struct nlmsghdr *)buf;
	nla_put(n, NFTA_RULE_TABLE, "gt", 3);
	nla_put(n, NFTA_RULE_CHAIN, name, strlen(name) + 1);
	nft_end(buf, &off);
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	if (fd < 0 || send(fd, buf, off, 0) != (ssize_t)off)
		fatal("ask nftables for the rules of chain %s", name);
	while (!done) {
		ssize_t got = recv(fd, reply, sizeof(reply), 0);
		int left = got;
		struct nlmsghdr *r;

		if (got <= 0)
			fatal("nftables rule dump");
		for (r = (struct nlmsghdr *)reply; NLMSG_OK(r, left); r = NLMSG_NEXT(r, left)) {
			struct rtattr *a;
			int alen;

			if (r->nlmsg_type == NLMSG_DONE || r->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			/* rule -> expressions -> elem -> data -> packets */
			a = (struct rtattr *)((char *)NLMSG_DATA(r) + NLMSG_ALIGN(sizeof(struct nfgenmsg)));
			alen = r->nlmsg_len - NLMSG_LENGTH(sizeof(struct nfgenmsg));
			for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
				struct rtattr *l, *e, *d;
				int ll, el, dl;

				if ((a->rta_type & NLA_TYPE_MASK) != NFTA_RULE_EXPRESSIONS)
					continue;
				ll = RTA_PAYLOAD(a);
				for (l = RTA_DATA(a); RTA_OK(l, ll); l = RTA_NEXT(l, ll)) {
					el = RTA_PAYLOAD(l);
					for (e = RTA_DATA(l); RTA_OK(e, el); e = RTA_NEXT(e, el)) {
						if ((e->rta_type & NLA_TYPE_MASK) != NFTA_EXPR_DATA)
							continue;
						dl = RTA_PAYLOAD(e);
						for (d = RTA_DATA(e); RTA_OK(d, dl); d = RTA_NEXT(d, dl)) {
							uint64_t v;

							if ((d->rta_type & NLA_TYPE_MASK) != NFTA_COUNTER_PACKETS)
								continue;
							memcpy(&v, RTA_DATA(d), sizeof(v));
							packets += be64toh(v);
						}
					}
				}
			}
		}
	}
	close(fd);
	return packets;
}

/* Make bridge NAME, up, with STP off (ports forward at once). */
static void make_bridge(const char *name)
{
	struct nlreq req;
	struct rtattr *linkinfo;

	linkinfo = new_link(&req, name, "bridge");
	nla_end(&req.n, linkinfo);
	nl_talk(&req.n, "create bridge %s (is CONFIG_BRIDGE set?)", name);
}

/* Make interface PORT a port of bridge MASTER. */
static void set_master(const char *port, const char *master)
{
	struct nlreq req;
	uint32_t m = if_nametoindex(master);

	link_request(&req, 0);
	req.i.ifi_index = if_nametoindex(port);
	if (!m || !req.i.ifi_index)
		fatal("no interface %s or %s", port, master);
	nla_put(&req.n, IFLA_MASTER, &m, sizeof(m));
	nl_talk(&req.n, "make %s a port of %s", port, master);
}

/* Replace DEV's root qdisc with KIND (no options: the defaults). */
static void set_root_qdisc(const char *dev, const char *kind)
{
	struct {
		struct nlmsghdr n;
		struct tcmsg t;
		char buf[64];
	} req;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	req.n.nlmsg_type = RTM_NEWQDISC;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK;
	req.t.tcm_family = AF_UNSPEC;
	req.t.tcm_ifindex = if_nametoindex(dev);
	req.t.tcm_parent = TC_H_ROOT;
	nla_put(&req.n, TCA_KIND, kind, strlen(kind) + 1);
	nl_talk(&req.n, "replace the root qdisc of %s with %s (is CONFIG_NET_SCH_%s set?)",
		dev, kind, strcmp(kind, "sfq") ? "FQ_CODEL" : "SFQ");
}

/* --- receiver: one process, poll() over TCP listener/stream, UDP and ctl */

struct tcp_rx {
	uint8_t buf[2 * (sizeof(struct rec_hdr) + TCP_PAYLOAD)];
	size_t have;
	uint32_t next_seq;
};

static void tcp_consume(struct tcp_rx *t, struct rx_stats *st)
{
	const size_t rec = sizeof(struct rec_hdr) + TCP_PAYLOAD;
	size_t off = 0;

	while (t->have - off >= rec) {
		const struct rec_hdr *h = (const void *)(t->buf + off);

		if (record_ok(t->buf + off, TCP_PAYLOAD) && h->seq == t->next_seq) {
			st->tcp_bytes += TCP_PAYLOAD;
			st->tcp_records++;
		} else {
			st->tcp_bad++;
		}
		t->next_seq++;
		off += rec;
	}
	memmove(t->buf, t->buf + off, t->have - off);
	t->have -= off;
}

static int listen_on(int type, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(port),
				     .sin6_addr = IN6ADDR_ANY_INIT };
	int one = 1, rcvbuf = 4 << 20;
	int fd = socket(use_v6 ? AF_INET6 : AF_INET, type, 0);

	if (fd < 0)
		fatal("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (use_v6 ? bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) :
		     bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		fatal("bind port %d", port);
	if (type == SOCK_STREAM && listen(fd, 1) < 0)
		fatal("listen");
	return fd;
}

/* A packet socket that sees every frame of interface NAME. */
static int packet_tap(const char *name)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	if (fd < 0)
		fatal("packet socket (is CONFIG_PACKET set?)");
	sll.sll_ifindex = if_nametoindex(name);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		fatal("bind the packet socket to %s", name);
	return fd;
}

static void receiver(int ctl, int ready, int res, int veth)
{
	static struct tcp_rx t;
	static uint8_t seen[1 << 24];	/* one byte per UDP sequence number */
	struct rx_stats st = { 0 };
	int lfd, ufd, cfd = -1, pfd = -1;
	const char *port, *port_or_br;
	int tcp_done = 0, udp_done = 0;
	double drain_until = 0;
	char c;

	if (veth) {
		if (unshare(CLONE_NEWNET) < 0)
			fatal("unshare(CLONE_NEWNET) (is CONFIG_NET_NS set?)");
		write_all(ready, "n", 1);	/* namespace exists */
		read_all(ctl, &c, 1);		/* veth peer moved in */
		port = use_v6 ? "veth3" : "veth1";
		if (extended) {
			/* the address moves to the bridge; the veth is a port */
			make_bridge("br0");
			set_master(port, "br0");
			if_up(port, NULL);
			port_or_br = "br0";
		} else {
			port_or_br = port;
		}
		if (use_v6) {
			if_addr6(port_or_br, PEER_ADDR6);
			if_up(port_or_br, NULL);
		} else {
			if_up(port_or_br, PEER_ADDR);
		}
		pfd = packet_tap(port);
	}
	if_up("lo", NULL);
	lfd = listen_on(SOCK_STREAM, TCP_PORT);
	ufd = listen_on(SOCK_DGRAM, UDP_PORT);
	write_all(ready, "r", 1);

	while (!tcp_done || !udp_done) {
		struct pollfd p[4] = {
			{ .fd = cfd < 0 ? lfd : cfd, .events = POLLIN },
			{ .fd = ufd, .events = POLLIN },
			{ .fd = drain_until ? -1 : ctl, .events = POLLIN },
			{ .fd = pfd, .events = POLLIN },
		};
		int n = poll(p, 4, 100);

		if (n < 0 && errno != EINTR)
			fatal("poll");
		if (!tcp_done && (p[0].revents & (POLLIN | POLLHUP))) {
			if (cfd < 0) {
				cfd = accept(lfd, NULL, NULL);
				if (cfd < 0)
					fatal("accept");
			} else {
				ssize_t r = read(cfd, t.buf + t.have,
						 sizeof(t.buf) - t.have);

				if (r < 0 && errno != EINTR)
					fatal("tcp read");
				if (r == 0) {
					tcp_done = 1;
					st.tcp_bad += t.have != 0; /* torn record */
					close(cfd);
					cfd = -1;
				} else if (r > 0) {
					t.have += r;
					tcp_consume(&t, &st);
				}
			}
		}
		if (p[1].revents & POLLIN) {
			uint8_t d[sizeof(struct rec_hdr) + UDP_PAYLOAD + 64];
			ssize_t r = recv(ufd, d, sizeof(d), MSG_DONTWAIT);
			const struct rec_hdr *h = (const void *)d;

			if (r == (ssize_t)(sizeof(*h) + UDP_PAYLOAD) &&
			    record_ok(d, UDP_PAYLOAD) && h->seq < sizeof(seen)) {
				if (seen[h->seq]++)
					st.udp_dup++;
				else
					st.udp_unique++;
			} else if (r >= 0) {
				st.udp_bad++;
			}
			if (drain_until)
				drain_until = now() + 0.5;
		}
		if (p[3].revents & POLLIN) {
			uint8_t f[64];
			ssize_t r;

			/* MSG_TRUNC: the frame's real length, not the copy's */
			while ((r = recv(pfd, f, sizeof(f), MSG_DONTWAIT | MSG_TRUNC)) > 0) {
				st.pkt_frames++;
				st.pkt_bytes += r;
			}
		}
		if (!drain_until && (p[2].revents & (POLLIN | POLLHUP))) {
			read_all(ctl, &c, 1);	/* senders are done */
			drain_until = now() + 0.5;
		}
		if (drain_until && now() > drain_until)
			udp_done = 1;
	}
	write_all(res, &st, sizeof(st));
	exit(0);
}

/* --- senders: one child per protocol, in the parent's namespace */

static void sender(int type, const char *addr, double seconds, int res)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	const uint32_t len = type == SOCK_STREAM ? TCP_PAYLOAD : UDP_PAYLOAD;
	static uint8_t buf[sizeof(struct rec_hdr) + TCP_PAYLOAD];
	const size_t rec = sizeof(struct rec_hdr) + len;
	struct tx_stats st = { 0 };
	double end = now() + seconds;
	int fd = socket(use_v6 ? AF_INET6 : AF_INET, type, 0);
	int sndbuf = 4 << 20;

	if (fd < 0)
		fatal("socket");
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	sin.sin_port = htons(type == SOCK_STREAM ? TCP_PORT : UDP_PORT);
	sin6.sin6_port = sin.sin_port;
	if (use_v6 ? inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1 :
		     inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		fatal("bad address %s", addr);
	if (use_v6 ? connect(fd, (struct sockaddr *)&sin6, sizeof(sin6)) :
		     connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		fatal("connect to %s", addr);

	while (now() < end && st.records < (1u << 24)) {
		fill_record(buf, (uint32_t)st.records, len);
		if (type == SOCK_STREAM) {
			write_all(fd, buf, rec);
		} else if (send(fd, buf, rec, 0) != (ssize_t)rec) {
			/* ENOBUFS/ECONNREFUSED: not sent, try the same again */
			if (errno != ENOBUFS && errno != ECONNREFUSED &&
			    errno != EAGAIN)
				fatal("udp send");
			continue;
		}
		st.records++;
		st.bytes += len;
	}
	close(fd);	/* TCP: the receiver sees EOF after the last byte */
	write_all(res, &st, sizeof(st));
	exit(0);
}

static pid_t spawn_sender(int type, const char *addr, double seconds, int *rfd)
{
	int p[2];
	pid_t pid;

	if (pipe(p) < 0)
		fatal("pipe");
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (pid == 0) {
		close(p[0]);
		sender(type, addr, seconds, p[1]);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

static int reap(pid_t pid, const char *what)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		fatal("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("TRAFFIC %s process failed (status 0x%x)\n", what, status);
		return 1;
	}
	return 0;
}

/* Run both protocols over one path; return the number of failures. */
static int run_path(const char *path, int veth, int v6, double seconds)
{
	int ctl[2], ready[2], res[2], tcp_fd, udp_fd, bad = 0;
	const char *addr = v6 ? (veth ? PEER_ADDR6 : "::1") :
				(veth ? PEER_ADDR : "127.0.0.1");
	struct tx_stats tcp_tx, udp_tx;
	struct rx_stats rx;
	int qdisc_changes = 0;
	pid_t rpid, tpid, upid;
	double t0;
	char c;

	use_v6 = v6;
	if (pipe(ctl) < 0 || pipe(ready) < 0 || pipe(res) < 0)
		fatal("pipe");
	rpid = fork();
	if (rpid < 0)
		fatal("fork");
	if (rpid == 0) {
		close(ctl[1]);
		close(ready[0]);
		close(res[0]);
		receiver(ctl[0], ready[1], res[1], veth);
	}
	close(ctl[0]);
	close(ready[1]);
	close(res[1]);
	if (veth) {
		read_all(ready[0], &c, 1);
		/* a pair of its own per family: the IPv4 pair may still be
		 * on its way out with the namespace of the previous path */
		if (v6) {
			make_veth("veth2", "veth3", rpid);
			if_addr6("veth2", HOST_ADDR6);
			if_up("veth2", NULL);
		} else {
			make_veth("veth0", "veth1", rpid);
			if_up("veth0", HOST_ADDR);
		}
		write_all(ctl[1], "v", 1);
	}
	read_all(ready[0], &c, 1);

	t0 = now();
	tpid = spawn_sender(SOCK_STREAM, addr, seconds, &tcp_fd);
	upid = spawn_sender(SOCK_DGRAM, addr, seconds, &udp_fd);
	if (veth && extended) {
		/* the sending end's root qdisc, replaced twice mid-flow */
		const char *dev = v6 ? "veth2" : "veth0";

		usleep(seconds * 250000);
		set_root_qdisc(dev, "fq_codel");
		usleep(seconds * 250000);
		set_root_qdisc(dev, "sfq");
		qdisc_changes = 2;
	}
	read_all(tcp_fd, &tcp_tx, sizeof(tcp_tx));
	read_all(udp_fd, &udp_tx, sizeof(udp_tx));
	bad += reap(tpid, "tcp sender") + reap(upid, "udp sender");
	write_all(ctl[1], "d", 1);
	read_all(res[0], &rx, sizeof(rx));
	bad += reap(rpid, "receiver");
	t0 = now() - t0;

	printf("TRAFFIC path=%s proto=tcp sent=%llu received=%llu lost=%lld corrupt=%llu seconds=%.1f MBps=%.2f\n",
	       path, (unsigned long long)tcp_tx.bytes,
	       (unsigned long long)rx.tcp_bytes,
	       (long long)(tcp_tx.bytes - rx.tcp_bytes),
	       (unsigned long long)rx.tcp_bad, t0, rx.tcp_bytes / t0 / 1e6);
	printf("TRAFFIC path=%s proto=udp sent=%llu received=%llu lost=%lld dup=%llu corrupt=%llu datagrams=%llu\n",
	       path, (unsigned long long)udp_tx.bytes,
	       (unsigned long long)rx.udp_unique * UDP_PAYLOAD,
	       (long long)(udp_tx.bytes - rx.udp_unique * UDP_PAYLOAD),
	       (unsigned long long)rx.udp_dup, (unsigned long long)rx.udp_bad,
	       (unsigned long long)udp_tx.records);
	if (rx.tcp_bytes != tcp_tx.bytes || rx.tcp_bad || tcp_tx.bytes == 0) {
		printf("TRAFFIC path=%s tcp check failed: lost or corrupt bytes, or nothing sent\n", path);
		bad++;
	}
	if (veth) {
		printf("TRAFFIC path=%s proto=packet frames=%llu bytes=%llu bridge=%s qdisc_changes=%d\n",
		       path, (unsigned long long)rx.pkt_frames,
		       (unsigned long long)rx.pkt_bytes, extended ? "yes" : "no",
		       qdisc_changes);
		if (!rx.pkt_frames) {
			printf("TRAFFIC path=%s packet check failed: the packet socket saw no frame\n",
			       path);
			bad++;
		}
	}
	if (rx.udp_dup || rx.udp_bad || rx.udp_unique > udp_tx.records ||
	    rx.udp_unique == 0) {
		printf("TRAFFIC path=%s udp check failed: duplicated or corrupt datagrams, or none arrived\n", path);
		bad++;
	}
	close(ctl[1]);
	close(ready[0]);
	close(res[0]);
	fflush(stdout);
	return bad;
}

int main(int argc, char **argv)
{
	const char *paths = "all";
	double seconds = 5;
	int opt, bad = 0;

	while ((opt = getopt(argc, argv, "t:p:x")) != -1) {
		switch (opt) {
		case 't':
			seconds = atof(optarg);
			break;
		case 'p':
			paths = optarg;
			break;
		case 'x':
			extended = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc || seconds <= 0 || seconds > 3600 ||
	    (strcmp(paths, "all") && strcmp(paths, "loopback") &&
	     strcmp(paths, "veth") && strcmp(paths, "loopback6") &&
	     strcmp(paths, "veth6")))
		goto usage;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (extended)
		nft_counting_chains();
	if (!strcmp(paths, "all") || !strcmp(paths, "loopback"))
		bad += run_path("loopback", 0, 0, seconds);
	if (!strcmp(paths, "all") || !strcmp(paths, "veth"))
		bad += run_path("veth", 1, 0, seconds);
	if (!strcmp(paths, "all") || !strcmp(paths, "loopback6"))
		bad += run_path("loopback6", 0, 1, seconds);
	if (!strcmp(paths, "all") || !strcmp(paths, "veth6"))
		bad += run_path("veth6", 1, 1, seconds);
	if (extended) {
		uint64_t in = nft_counted("in"), out = nft_counted("out");

		printf("TRAFFIC path=host proto=nftables input_packets=%llu output_packets=%llu\n",
		       (unsigned long long)in, (unsigned long long)out);
		if (!in || !out) {
			printf("TRAFFIC path=host nftables check failed: a counter rule counted nothing\n");
			bad++;
		}
	}
	printf("TRAFFIC-RESULT %s (%d failed checks)\n", bad ? "FAIL" : "PASS", bad);
	return bad ? 1 : 0;
usage:
	fprintf(stderr, "usage: %s [-t SECONDS] [-p loopback|veth|loopback6|veth6|all] [-x]\n",
		argv[0]);
	return 2;
}
