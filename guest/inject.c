// SPDX-License-Identifier: GPL-2.0
/*
 * inject - put attacker-controlled bytes into the kernel log, the ways an
 * attacker really can.  Payloads are given in the printk escape format
 * ("\x1b[1A"), so the console that carries the command line never sees a
 * control byte; inject decodes them before use.
 *
 *   inject kmsg PAYLOAD        one write(2) of PAYLOAD to /dev/kmsg
 *   inject segv-comm PAYLOAD   as nobody: set the task name (prctl
 *                              PR_SET_NAME), then segfault; the kernel's
 *                              "segfault at" report prints the name
 *   inject segv-file PAYLOAD   as nobody: run a copy of this program whose
 *                              file name is PAYLOAD, which segfaults; the
 *                              report prints the mapped file's name
 *   inject write-param FILE HEX [TIMES]
 *                              one write(2) of the bytes HEX spells (TIMES
 *                              over) to FILE; prints OK or the name of the
 *                              error of open(2) or write(2) (EACCES, EINVAL)
 *   inject as-nobody COMMAND   as nobody: run COMMAND with sh -c; exits
 *                              with its status
 *   inject sysrq-comm PAYLOAD KEY
 *                              as root, on CPU 0: set the task name, then
 *                              write KEY to /proc/sysrq-trigger (c: panic,
 *                              whose report prints the name)
 *   inject spin-comm PAYLOAD SECONDS
 *                              as nobody, on CPU 1: set the task name and
 *                              spin in user space, for an NMI backtrace
 *                              of that CPU to catch; says "spinning"
 *                              when it starts to
 *   inject sleep-comm PAYLOAD SECONDS
 *                              as nobody: set the task name, say
 *                              "sleeping" and sleep
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tools/unescape.h"

#define NOBODY 65534

static void die(const char *what)
{
	fprintf(stderr, "inject: %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *decode(const char *arg, size_t *len)
{
	char *buf = malloc(strlen(arg) + 1);

	if (!buf)
		die("malloc");
	*len = kescape_unescape_payload(buf, arg, strlen(arg));
	buf[*len] = '\0';
	return buf;
}

static void drop_privileges(void)
{
	if (setgid(NOBODY) || setuid(NOBODY))
		die("setuid nobody");
}

static int *volatile nowhere;

static void crash(void)
{
	*nowhere = 0;
}

/* Run @fn in an unprivileged child and wait for it to die. */
static int in_child(void (*fn)(const char *, size_t), const char *p, size_t n)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		drop_privileges();
		fn(p, n);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV ? 0 : 1;
}

static void segv_with_name(const char *name, size_t len)
{
	(void)len;
	if (prctl(PR_SET_NAME, name))
		die("prctl");
	crash();
}

static void exec_crasher(const char *path, size_t len)
{
	(void)len;
	execl(path, "segv", (char *)NULL);
	die("exec");
}

static int copy_self(const char *path)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY);
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);

	if (in < 0 || out < 0)
		die("open");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			die("write");
	close(in);
	return close(out);
}

/* Write the bytes @hex spells to @path at once; say how it went. */
/*
 * One write(2) to @path of the bytes @hex spells, @times over: a guest
 * command line holds at most 4095 characters, a long value does not.
 */
static int write_param(const char *path, const char *hex, size_t times)
{
	size_t len = strlen(hex) / 2, i;
	char *value = malloc(len * times + 1);
	unsigned int byte;
	int fd;

	if (!value)
		die("malloc");
	for (i = 0; i < len; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			die("hex");
		value[i] = byte;
	}
	for (i = 1; i < times; i++)
		memcpy(value + i * len, value, len);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	if (write(fd, value, len * times) < 0)
		printf("%s\n", strerrorname_np(errno));
	else
		printf("OK\n");
	return close(fd);
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static int sysrq_with_name(const char *name, const char *key)
{
	int fd;

	pin_to_cpu(0);
	if (prctl(PR_SET_NAME, name))
		die("prctl");
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd < 0)
		die("/proc/sysrq-trigger");
	if (write(fd, key, strlen(key)) < 0)
		die("write /proc/sysrq-trigger");
	return close(fd);
}

static int spin_with_name(const char *name, const char *seconds)
{
	time_t end = time(NULL) + atoi(seconds);

	pin_to_cpu(1);
	drop_privileges();
	if (prctl(PR_SET_NAME, name))
		die("prctl");
	/* The test waits for this before it asks for a backtrace. */
	printf("spinning\n");
	fflush(stdout);
	while (time(NULL) < end)
		;
	return 0;
}

static int sleep_with_name(const char *name, const char *seconds)
{
	drop_privileges();
	if (prctl(PR_SET_NAME, name))
		die("prctl");
	/* The test waits for this before it looks at the task. */
	printf("sleeping\n");
	fflush(stdout);
	sleep(atoi(seconds));
	return 0;
}

int main(int argc, char **argv)
{
	size_t len;
	char *payload;

	if (strcmp(argv[0], "segv") == 0)
		crash();
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "write-param") == 0)
		return write_param(argv[2], argv[3], argc == 5 ? atoi(argv[4]) : 1);
	if (argc == 4 && strcmp(argv[1], "sysrq-comm") == 0)
		return sysrq_with_name(decode(argv[2], &len), argv[3]);
	if (argc == 4 && strcmp(argv[1], "spin-comm") == 0)
		return spin_with_name(decode(argv[2], &len), argv[3]);
	if (argc == 4 && strcmp(argv[1], "sleep-comm") == 0)
		return sleep_with_name(decode(argv[2], &len), argv[3]);
	if (argc != 3) {
		fprintf(stderr, "usage: inject kmsg|segv-comm|segv-file|as-nobody PAYLOAD\n");
		return 2;
	}
	payload = decode(argv[2], &len);

	if (strcmp(argv[1], "kmsg") == 0) {
		int fd = open("/dev/kmsg", O_WRONLY);

		if (fd < 0)
			die("/dev/kmsg");
		if (write(fd, payload, len) != (ssize_t)len)
			die("write /dev/kmsg");
		return close(fd);
	}
	if (strcmp(argv[1], "as-nobody") == 0) {
		drop_privileges();
		execl("/bin/sh", "sh", "-c", payload, (char *)NULL);
		die("exec sh");
	}
	if (strcmp(argv[1], "segv-comm") == 0)
		return in_child(segv_with_name, payload, len);
	if (strcmp(argv[1], "segv-file") == 0) {
		char path[4096];
		int ret;

		snprintf(path, sizeof(path), "/tmp/%s", payload);
		copy_self(path);
		ret = in_child(exec_crasher, path, strlen(path));
		unlink(path);
		return ret;
	}
	fprintf(stderr, "inject: unknown vector %s\n", argv[1]);
	return 2;
}
