# kescape: a printk patch series that escapes control characters at output
# time, and the rig that proves it on booted kernels.
#
#   make demo    build both kernels, boot each, fire the attack, show the
#                serial console an admin would see
#   make check   the whole test suite (what .ci/run runs)
#   make help    every target and the variables a user may set
#   make check KERNEL=6.12, make check KERNEL=6.1
#                the same for the backports: Debian 13's kernel (and
#                Debian 12's backports), linux-source-6.12, with
#                patches/6.12, and Debian 12's own, linux-source-6.1,
#                with patches/6.1
#
# The default, KERNEL=7.2, is mainline as Debian unstable ships it,
# linux-source-7.2, with the series in patches/: scripts/fetch-sid.sh
# downloads it into $(CACHE) with apt's own checks and installs nothing.
#
# Kernel sources and builds live in $(CACHE), outside the repository.

CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kescape
BUILD := $(CURDIR)/build
export CACHE

# Which kernel: 7.2 (mainline, Debian unstable's linux-source-7.2,
# patches/), 6.12 (linux-source-6.12, patches/6.12/) or 6.1 (Debian 12's
# own, linux-source-6.1, patches/6.1/).  Each has its own work tree and
# build folders in $(CACHE) (scripts/tree.sh) and its own guest.
# make deb builds the series of the running kernel (6.12 on Debian 13,
# 6.1 on Debian 12) unless KERNEL= says otherwise.
ifeq ($(origin KERNEL)$(filter deb,$(MAKECMDGOALS)),undefineddeb)
KERNEL := $(shell uname -r | sed -n 's/^\(7\.2\|6\.12\|6\.1\)[.-].*/\1/p')
ifeq ($(KERNEL),)
$(error make deb: the running kernel, $(shell uname -r), has no series here; give KERNEL=6.12, 6.1 or 7.2)
endif
endif
KERNEL ?= 7.2
ifeq ($(KERNEL),7.2)
KSUFFIX := -7.2
# Fetched from sid by scripts/fetch-sid.sh, not installed.
KSOURCE :=
else ifeq ($(KERNEL),6.12)
KSUFFIX :=
KSOURCE := linux-source-$(KERNEL)
else ifeq ($(KERNEL),6.1)
KSUFFIX := -6.1
KSOURCE := linux-source-$(KERNEL)
else
$(error KERNEL=$(KERNEL): the series exists for 7.2, 6.12 and 6.1)
endif
export KVER := $(KERNEL)
# The build folder of a flavour is $(KBUILD)-FLAVOUR.
KBUILD := $(CACHE)/build$(KSUFFIX)

# What building a kernel needs (Debian's kernel source, the compiler);
# make deb adds bindeb-pkg's tools, make deps the test rig's (QEMU, expect,
# the tools' checkers; linux-config-*, Debian's configurations, which
# check-series.sh builds).
KERNEL_PACKAGES := $(KSOURCE) gcc make flex bison bc libelf-dev libssl-dev \
	cpio ccache git xz-utils perl
# (What a minimal Debian 13 lacks: build-essential, which bindeb-pkg's
# dpkg-checkbuilddeps requires, openssl, which makes the module signing
# key, and zstd, which compresses Debian 13's kernel image.)
DEB_PACKAGES := $(KERNEL_PACKAGES) build-essential openssl zstd kmod dpkg-dev \
	debhelper rsync libdw-dev
RIG_PACKAGES := $(KERNEL_PACKAGES) $(if $(KSOURCE),linux-config-$(KERNEL)) \
	qemu-system-x86 expect busybox-static tmux python3 util-linux clang \
	libclang-rt-14-dev valgrind unicode-data mandoc

# The kernel make run and make run-distro boot: patched or vanilla.
FLAVOUR ?= patched

CFLAGS := -O2 -Wall -Wextra -Werror
VANILLA := $(KBUILD)-vanilla/arch/x86/boot/bzImage
PATCHED := $(KBUILD)-patched/arch/x86/boot/bzImage
INITRAMFS := $(BUILD)/initramfs$(KSUFFIX).cpio

.PHONY: all deps kernels vanilla patched debug kcsan initramfs tools demo \
	check check-debug check-kcsan check-series bench soak run clean \
	distro-kernels distro-rootfs check-distro run-distro deb deb-deps deb-rig \
	debian13-image debian13-lsmod check-deb count-format-controls help

all: kernels initramfs tools

# What a user may run and set, one line each.  Variables set on make's
# command line reach the scripts as environment variables: JOBS and
# CCACHE_MAXSIZE (scripts/build-kernel.sh), KERNEL_TARBALL
# (scripts/tree.sh), KESCAPE_PLANT (the debug kernel), LOAD
# (expect-tests/soak), DEBIAN_MIRROR (scripts/apt-mirror.sh).
help:
	@echo 'Targets (each takes KERNEL=7.2, 6.12 or 6.1; how long each takes: doc/timings.md):'
	@echo '  make demo            build vanilla and patched kernels, boot each, fire the attack, show the consoles'
	@echo '  make check           the whole test suite (what .ci/run runs); ends with "N passed, N failed"'
	@echo '  make check-series    the full matrix, run before mailing: every prefix builds the kernel, on four configurations (6.1 two), boots it with its KUnit suites; checkpatch'
	@echo '                       (make check, on the test configuration: the touched files at every prefix, the whole series)'
	@echo '  make check-debug     the expect tests on the patched kernel with KASAN, UBSAN, lockdep (guest/debug.config)'
	@echo '  make check-kcsan     the expect tests on the patched kernel with KCSAN, two vCPUs (guest/kcsan.config)'
	@echo '  make check-distro    Debian 12 with systemd on a vanilla and a patched kernel (needs the Debian archive)'
	@echo '  make deb             this machine'"'"'s -kescape package, by bindeb-pkg, into build/debs/: the running kernel'"'"'s'
	@echo '                       configuration and series (CONFIG=FILE, LSMOD=FILE|running, KERNEL= below); as root'
	@echo '  make deb CONFIG=debian  the -kescape package on Debian 13'"'"'s whole configuration (hours)'
	@echo '  make deb-rig         the rig'"'"'s -kescape and -vanilla packages on its small configuration (what check-deb compares)'
	@echo '  make check-deb       Debian 13 from a disk: its own kernel, then make deb-rig'"'"'s packages and (KERNEL=6.12)'
	@echo '                       the README'"'"'s make deb and apt install inside the image, booted; Debian'"'"'s next kernel'
	@echo '                       update, GRUB'"'"'s boot after it, the rebuild and apt'"'"'s upgrade (expect-tests/deb/admin.sh)'
	@echo '  make check-crash     (KERNEL=6.12) Debian 13'"'"'s kdump-tools, vmcore-dmesg and crash read both kernels'"'"' vmcores'
	@echo '  make run             the test guest on this terminal with a shell (Ctrl-a x leaves)'
	@echo '  make run-distro      the Debian guest on this terminal; log in as root, no password'
	@echo '  make bench           helper cost under callgrind, kescape-filter against cat -v, printk() cost in the guest'
	@echo '  make soak            the expect suite RUNS times in a row, counting failures'
	@echo '  make count-format-controls  the printk formats that hold control bytes (Coccinelle), against the cover letter'
	@echo 'Parts (the targets above build what they need):'
	@echo '  make                 the kernels, the initramfs and the tools (make all)'
	@echo '  make kernels         the vanilla and the patched kernel (make vanilla, make patched: one of them)'
	@echo '  make debug           the debug kernel of make check-debug'
	@echo '  make kcsan           the KCSAN kernel of make check-kcsan'
	@echo '  make initramfs       the test guest'"'"'s initramfs, in build/'
	@echo '  make distro-kernels  the vanilla and patched kernels of the Debian guest (guest/distro.config)'
	@echo '  make distro-rootfs   the Debian 12 root file system of make check-distro (mmdebstrap)'
	@echo '  make debian13-image  the Debian 13 disk image of make check-deb (mmdebstrap)'
	@echo '  make debian13-lsmod  the configuration and lsmod of Debian'"'"'s kernel booted in that image'
	@echo '  make tools           build/tools/: kescape-filter, kescape-decode, kmsg-raw, flood-check, bench'
	@echo '  make deps            install the Debian packages the rig needs (as root; make deb installs only its own)'
	@echo '  make deb-deps        install only what make deb needs (as root)'
	@echo '  make clean           remove build/ (the cache of kernels stays)'
	@echo 'The tools alone (make -C tools TARGET):'
	@echo '  make -C tools check  the tools tests (sanitizers, short fuzzing, the targets below, man pages)'
	@echo '  make -C tools check-perf  the helper'"'"'s and the scan'"'"'s instructions per byte within their bounds'
	@echo '  make -C tools check-strict-table  the strict table is what the series'"'"' generator makes of Debian'"'"'s Unicode data'
	@echo '  make -C tools check-port-source   the backports'"'"' helper, tables and KUnit suite are mainline'"'"'s source'
	@echo '  make -C tools kunit-user  the helper'"'"'s KUnit suite, run in userspace'
	@echo '  make -C tools bench  the userspace part of make bench: callgrind, time ratios, kescape-filter against cat -v'
	@echo '  make -C tools fuzz   longer fuzzing, FUZZ_SECONDS per fuzzer'
	@echo '  make -C tools install  the three tools and their man pages into PREFIX'
	@echo '  make -C tools clean  remove build/tools/'
	@echo 'Variables (make VAR=value ...):'
	@echo '  KERNEL=7.2           which series: 7.2 (patches/), 6.12 (patches/6.12), 6.1 (patches/6.1); make deb: the running kernel'"'"'s'
	@echo '  CONFIG=FILE          make deb: the configuration to build (default /boot/config-$$(uname -r)); debian: Debian 13'"'"'s'
	@echo '  LSMOD=FILE           make deb: trim the configuration to the modules in FILE (lsmod'"'"'s output) by make localmodconfig;'
	@echo '                       LSMOD=running: the modules this machine has loaded'
	@echo '  FLAVOUR=patched      the kernel make run and make run-distro boot: patched or vanilla'
	@echo '  APPEND="..."         more of the kernel command line for make run and make run-distro'
	@echo '  CONFIG=debian        make deb: the -kescape package alone, on Debian 13'"'"'s own configuration (4230 modules)'
	@echo '  CACHE=DIR            kernel sources, builds and ccache (default $$XDG_CACHE_HOME/kescape or ~/.cache/kescape)'
	@echo '  JOBS=N               parallel jobs of a kernel build (default: nproc)'
	@echo '  KERNEL_TARBALL=FILE  unpack this source tarball, not Debian'"'"'s linux-source-KERNEL (again whenever the tarball changes)'
	@echo '  CCACHE_MAXSIZE=5G    size of the kernels'"'"' ccache in CACHE'
	@echo '  DEBIAN_MIRROR=URL    the Debian archive the rig fetches from (default: the one /etc/apt/sources* name)'
	@echo '  RUNS=20              how many times make soak runs the expect suite'
	@echo '  LOAD=1               make soak with a busy loop per core beside it'
	@echo '  KESCAPE_PLANT=PATCH  build the debug kernel with PATCH on top (guest/planted/: check-debug must fail)'
	@echo '  COCCI_JOBS=1         spatch'"'"'s jobs in make count-format-controls'
	@echo '  FUZZ_SECONDS=10      seconds per fuzzer in make -C tools check and make -C tools fuzz'
	@echo '  PREFIX=/usr/local    where make -C tools install puts the tools (DESTDIR=DIR: under DIR)'

# Install what is missing (as root; the rig runs on Debian 12): the rig's
# packages and make deb's, or make deb's alone.
define install-missing
@missing=$$(for p in $(1); do \
	dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	grep -q 'ok installed' || echo $$p; done); \
if [ -n "$$missing" ]; then \
	echo "installing:" $$missing; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $$missing; \
fi
@mkdir -p $(BUILD) && touch $@
endef
deps: $(BUILD)/.deps$(KSUFFIX)
$(BUILD)/.deps$(KSUFFIX):
	$(call install-missing,$(RIG_PACKAGES))
deb-deps: $(BUILD)/.deb-deps$(KSUFFIX)
$(BUILD)/.deb-deps$(KSUFFIX):
	$(call install-missing,$(DEB_PACKAGES))

# The build script decides from stamps whether anything must be rebuilt.
vanilla: deps
	scripts/build-kernel.sh vanilla
patched: deps vanilla
	scripts/build-kernel.sh patched
kernels: vanilla patched
# The patched kernel with KASAN, UBSAN, lockdep and more (guest/debug.config).
# KESCAPE_PLANT=PATCH builds it with PATCH on top of the series.
debug: deps vanilla
	scripts/build-kernel.sh debug
# The patched kernel with KCSAN (guest/kcsan.config).
kcsan: deps vanilla
	scripts/build-kernel.sh kcsan

# --- guest ----------------------------------------------------------------

$(BUILD)/inject: guest/inject.c tools/unescape.c tools/unescape.h | deps
	gcc $(CFLAGS) -static -o $@ guest/inject.c tools/unescape.c

$(BUILD)/kmsg-raw: tools/kmsg-raw.c | deps
	gcc $(CFLAGS) -D_GNU_SOURCE -static -o $@ $<

$(BUILD)/emit-bench: guest/emit-bench.c tools/unescape.c tools/unescape.h | deps
	gcc $(CFLAGS) -static -o $@ guest/emit-bench.c tools/unescape.c

$(BUILD)/flood: guest/flood.c guest/flood-record.h | deps
	gcc $(CFLAGS) -static -o $@ $<

GUEST_BINS := $(BUILD)/inject $(BUILD)/kmsg-raw $(BUILD)/emit-bench \
	$(BUILD)/flood

# The series' KUnit suite, a module of the patched kernel.
KUNIT_MODULE := $(KBUILD)-patched/kernel/printk/escape_kunit.ko
$(KUNIT_MODULE): patched ;

# Logs messages with format and data newlines, built against a kernel's
# build folder (in $(BUILD), not in the source folder): the vanilla
# kernel's copy loads into both test kernels (same version, no module
# versioning); the debug and kcsan kernels need their own.
$(BUILD)/emit$(KSUFFIX)-%/kescape_emit.ko: guest/emit/kescape_emit.c guest/emit/Kbuild %
	mkdir -p $(@D)
	cp guest/emit/kescape_emit.c guest/emit/Kbuild $(@D)/
	$(MAKE) -s -C $(KBUILD)-$* M=$(@D) CC="ccache gcc" modules
EMIT_MODULE := $(BUILD)/emit$(KSUFFIX)-vanilla/kescape_emit.ko

$(INITRAMFS): guest/init guest/initramfs.sh $(GUEST_BINS) $(KUNIT_MODULE) $(EMIT_MODULE) | vanilla
	guest/initramfs.sh $(KBUILD)-vanilla/usr/gen_init_cpio $@ \
		guest/init $(GUEST_BINS) $(KUNIT_MODULE) $(EMIT_MODULE)

initramfs: $(INITRAMFS)

# The debug and kcsan kernels' guests: the same, with the KUnit module
# built for each.
$(BUILD)/initramfs$(KSUFFIX)-%.cpio: guest/init guest/initramfs.sh $(GUEST_BINS) $(BUILD)/emit$(KSUFFIX)-%/kescape_emit.ko % | vanilla
	guest/initramfs.sh $(KBUILD)-vanilla/usr/gen_init_cpio $@ \
		guest/init $(GUEST_BINS) $(KBUILD)-$*/kernel/printk/escape_kunit.ko \
		$(BUILD)/emit$(KSUFFIX)-$*/kescape_emit.ko

# --- userspace tools ------------------------------------------------------

tools: deps
	$(MAKE) -C tools

# --- running --------------------------------------------------------------

# The targets that build kernels and then boot them hold the lock of the
# cache's work tree (scripts/locked) from their first build to their last
# boot: another target on the same cache (a check-debug with a planted
# bug, a second checkout) waits, rather than rebuild a kernel in place
# while it is booted.  Each is its -locked target under the lock.
LOCKED_TARGETS := check check-debug check-kcsan check-distro check-deb soak \
	demo check-series bench
.PHONY: $(addsuffix -locked,$(LOCKED_TARGETS))
# A dry run (make -n) builds and boots nothing: it takes no lock.
LOCK := $(if $(findstring n,$(firstword -$(MAKEFLAGS))),,scripts/locked)
$(LOCKED_TARGETS): %:
	@$(LOCK) $(MAKE) --no-print-directory $*-locked

demo-locked: kernels initramfs
	expect-tests/demo.exp $(VANILLA) $(PATCHED) $(INITRAMFS)

# On the backports the expect tests are those of 7.2 but what they do not
# have: 58-netconsole proves the task name that netconsole's taskname=
# prints escaped, and an early record keeping it, on 7.x, which keeps a
# task name with each record; 6.1 also lacks the bug 57-dropped-newline
# shows (the dropped-messages notice cuts the newline of the record it is
# put before): it prints the notice from a buffer of its own.
# 56-replay replays the log with SysRq R, which 6.1 does not have (it
# came after 6.1; 6.12 has it).
BACKPORT_SKIP := %/58-netconsole.test \
	$(if $(filter 6.1,$(KERNEL)),%/57-dropped-newline.test %/56-replay.test)
EXPECT_TESTS := $(if $(filter 7.2,$(KERNEL)),,$(filter-out $(BACKPORT_SKIP),$(wildcard expect-tests/*.test)))
check-locked: kernels initramfs tools
	expect-tests/run-suite $(VANILLA) $(PATCHED) $(INITRAMFS) $(EXPECT_TESTS)

# The patched kernel's expect tests on the debug kernel (one vCPU) and on
# the kcsan kernel (two), every boot's console free of kernel reports.
# Not part of make check: their cold builds would take CI's fresh clone
# past half an hour.  The clean-boot test compares with vanilla's boot,
# which these kernels do not match.
ONLY_TESTS := $(filter-out %/90-clean-boot.test,$(wildcard expect-tests/*.test))
check-debug-locked: debug tools $(BUILD)/initramfs$(KSUFFIX)-debug.cpio
	expect-tests/run-suite --only debug \
		$(KBUILD)-debug/arch/x86/boot/bzImage \
		$(BUILD)/initramfs$(KSUFFIX)-debug.cpio $(ONLY_TESTS)
check-kcsan-locked: kcsan tools $(BUILD)/initramfs$(KSUFFIX)-kcsan.cpio
	expect-tests/run-suite --only kcsan --smp 2 \
		$(KBUILD)-kcsan/arch/x86/boot/bzImage \
		$(BUILD)/initramfs$(KSUFFIX)-kcsan.cpio $(ONLY_TESTS)

# Debian 12 with systemd, journald and a serial getty (guest/distro/) on a
# vanilla and a patched kernel with what systemd needs (guest/distro.config).
# Not part of make check: two more kernel builds.  mmdebstrap fetches the
# root file system from the Debian archive once; it is cached in $(CACHE)
# under the hash of its recipe.
DISTRO_VANILLA := $(KBUILD)-distro-vanilla/arch/x86/boot/bzImage
DISTRO_PATCHED := $(KBUILD)-distro-patched/arch/x86/boot/bzImage
DISTRO_ROOTFS := $(BUILD)/distro-rootfs.cpio
distro-kernels: deps
	scripts/build-kernel.sh distro-vanilla
	scripts/build-kernel.sh distro-patched
distro-rootfs: deps $(BUILD)/inject
	@command -v mmdebstrap >/dev/null || apt-get install -y mmdebstrap >/dev/null
	guest/distro/build-rootfs.sh $(BUILD)/inject $(DISTRO_ROOTFS)
check-distro-locked: distro-kernels distro-rootfs
	expect-tests/run-suite --expect-only $(DISTRO_VANILLA) $(DISTRO_PATCHED) \
		$(DISTRO_ROOTFS) expect-tests/distro/debian.test
# The Debian guest on this terminal: log in as root (no password) on the
# serial getty; FLAVOUR=vanilla for the other kernel.  Leave with Ctrl-a x.
run-distro: distro-kernels distro-rootfs
	qemu-system-x86_64 -accel tcg -m 1536 -bios /usr/share/qemu/qboot.rom \
		-display none -no-reboot -serial mon:stdio -serial null \
		-kernel $(KBUILD)-distro-$(FLAVOUR)/arch/x86/boot/bzImage \
		-initrd $(DISTRO_ROOTFS) -append "console=ttyS0 $(APPEND)"

# make deb: the -kescape package of this machine's kernel, by the kernel's
# own bindeb-pkg: Debian's kernel here, the newest installed of the
# series' version (the running one, or the update Debian installed since),
# built from Debian's linux-source at its version where apt has it
# (scripts/deb-source.sh), on its configuration (CONFIG=FILE another),
# trimmed by make localmodconfig to the modules in LSMOD=FILE (lsmod's
# output; LSMOD=running: this machine's), released as VERSION-kescape
# (guest/deb-patched.config) without debug information
# (guest/deb-debian.config); left in build/debs/ with linux-image-kescape
# (scripts/deb-meta.sh), which keeps GRUB on it after Debian's updates and
# says when to rebuild.  Installs only what building it needs
# (DEB_PACKAGES).
# make deb CONFIG=debian: the same on Debian 13's whole configuration (the
# Debian 13 image's /boot/config-*): about 4230 modules, hours on two
# cores, left in $(KBUILD)-deb-debian.debs/.
# make deb-rig: the rig's two packages on the Debian guest's small
# configuration (guest/distro.config): linux-image-VERSION-kescape from
# the patched tree and linux-image-VERSION-vanilla from the same tree
# unpatched (guest/deb-*.config), which make check-deb compares.
DEB_PATCHED := $(KBUILD)-deb-patched.debs
DEB_VANILLA := $(KBUILD)-deb-vanilla.debs
DEB_ADMIN := $(KBUILD)-deb-admin.debs
DEB_RELEASE := $(if $(filter deb,$(MAKECMDGOALS)),$(shell KVER=$(KERNEL) scripts/deb-source.sh release))
DEB_CONFIG := $(or $(CONFIG),/boot/config-$(or $(DEB_RELEASE),$(shell uname -r)))
DEB_LSMOD := $(if $(filter running,$(LSMOD)),$(BUILD)/lsmod.running,$(if $(LSMOD),$(abspath $(LSMOD))))
# Checked when make reads this file, before deb-deps installs anything
# (with -j too): root, and the files make deb is given.
ifneq ($(filter deb,$(MAKECMDGOALS)),)
ifneq ($(shell id -u),0)
$(error make deb: run it as root (it installs what building a kernel package needs with apt))
endif
ifneq ($(CONFIG),debian)
ifeq ($(wildcard $(DEB_CONFIG)),)
$(error make deb: no $(DEB_CONFIG), the configuration to build; give CONFIG=FILE (a kernel's .config, such as a Debian machine's /boot/config-*))
endif
ifneq ($(filter-out running,$(LSMOD)),)
ifeq ($(wildcard $(DEB_LSMOD)),)
$(error make deb: no $(DEB_LSMOD); LSMOD=FILE is lsmod's output, LSMOD=running this machine's)
endif
endif
endif
endif
ifeq ($(CONFIG),debian)
deb: deb-deps debian13-image
	DEBIAN_CONFIG=$(DEBIAN13).boot/config \
	DEBIAN_MODULES=$(DEBIAN13).boot/modules.order \
		scripts/build-kernel.sh deb-debian
	@ls -s --block-size=K $(KBUILD)-deb-debian.debs/*.deb
else
deb: deb-deps
	@scripts/deb-source.sh $(if $(CONFIG),show,install)
	$(if $(filter running,$(LSMOD)),@lsmod > $(DEB_LSMOD))
	DEBIAN_CONFIG=$(abspath $(DEB_CONFIG)) DEBIAN_LSMOD=$(DEB_LSMOD) \
		scripts/build-kernel.sh deb-admin
	@rm -rf $(BUILD)/debs && mkdir -p $(BUILD)/debs
	@ln -sf $(DEB_ADMIN)/*.deb $(BUILD)/debs/
	@scripts/deb-meta.sh $(DEB_ADMIN)/linux-image-*-kescape_*.deb $(BUILD)/debs \
		'cd $(CURDIR) && make deb$(if $(filter running,$(LSMOD)), LSMOD=running) && apt install ./build/debs/linux-image-*kescape*.deb' >/dev/null
	@ls -sL --block-size=K $(BUILD)/debs/*.deb
endif
deb-rig: deb-deps
	scripts/build-kernel.sh deb-vanilla
	scripts/build-kernel.sh deb-patched
	@ls -s --block-size=K $(DEB_PATCHED)/*.deb $(DEB_VANILLA)/linux-*-vanilla_*.deb

# Debian 13 on a disk image, with Debian's own kernel (guest/debian13/),
# cached in $(CACHE) under the hash of its recipe; then the packages
# installed in it with apt, booted, and removed (expect-tests/deb/).
# make check-deb KERNEL=6.12 is Debian 13's own kernel version: it also
# takes the image's lsmod under Debian's kernel (kept beside the image,
# expect-tests/deb/lsmod.exp), and on a copy of the image, the machine
# ($(DEB_MACHINE)/disk.img; make deb's cache for it beside), runs the
# README's commands inside it at a terminal (admin.sh build: the clone
# is this checkout's HEAD), boots the package as the machine
# (machine.exp), gives the machine Debian's next kernel update and
# reboots it by GRUB (update.exp update), runs the rebuild the notice
# gives (admin.sh rebuild) and boots the rebuilt kernel (update.exp
# rebuilt).
DEB_MACHINE := $(CACHE)/debian13-admin
DEBIAN13 := $(BUILD)/debian13.img
debian13-image: deps $(BUILD)/inject
	@command -v mmdebstrap >/dev/null || apt-get install -y mmdebstrap >/dev/null
	guest/debian13/build-image.sh $(BUILD)/inject $(DEBIAN13)
debian13-lsmod: debian13-image
	@[ -s $(DEBIAN13).boot/lsmod ] || \
		expect-tests/deb/lsmod.exp $(DEBIAN13) $(DEBIAN13).boot $(DEBIAN13).boot/lsmod
ifeq ($(KERNEL),6.12)
check-deb-locked: deb-rig debian13-lsmod
	expect-tests/run-suite --deb $(DEBIAN13) $(DEBIAN13).boot \
		$(DEB_PATCHED) $(DEB_VANILLA)
	scripts/tap-step "the README's commands in the machine" expect-tests/deb/admin.sh build \
		$(DEB_MACHINE) $(DEBIAN13) $(DEBIAN13).boot $(CURDIR)
	scripts/tap-step "the machine's package" \
		expect-tests/deb/machine.exp $(DEB_MACHINE)/disk.img $(DEBIAN13).boot installed
	scripts/tap-step "Debian's next kernel update" \
		expect-tests/deb/update.exp $(DEB_MACHINE)/disk.img $(DEB_MACHINE)/record update
	scripts/tap-step "the rebuild" expect-tests/deb/admin.sh rebuild $(DEB_MACHINE)
	scripts/tap-step "the rebuilt kernel" \
		expect-tests/deb/update.exp $(DEB_MACHINE)/disk.img $(DEB_MACHINE)/record rebuilt
else
check-deb-locked: deb-rig debian13-image
	expect-tests/run-suite --deb $(DEBIAN13) $(DEBIAN13).boot \
		$(DEB_PATCHED) $(DEB_VANILLA)
endif

# make check-crash KERNEL=6.12: Debian's crash-dump readers read a kescape
# kernel's vmcore as vanilla's (expect-tests/deb/crash.exp).  The rig's two
# packages with kdump's options and debug information for crash
# (scripts/build-kernel.sh crash-*, guest/debian13/crash.config), in
# $(KBUILD)-crash-*.debs; the Debian 13 image with kdump-tools and crash
# (guest/debian13/build-crash-image.sh); each kernel crashed with SysRq c,
# its vmcore saved by kdump and read by makedumpfile, vmcore-dmesg and
# crash.  Not part of make check or check-deb: two more kernel builds.
# Holds the tree's lock from the first build to the last boot.
DEBIAN13_CRASH := $(BUILD)/debian13-crash.img
.PHONY: check-crash check-crash-locked
check-crash:
	@scripts/locked $(MAKE) --no-print-directory check-crash-locked
check-crash-locked: deb-deps debian13-image $(BUILD)/kmsg-raw
	scripts/build-kernel.sh crash-vanilla
	scripts/build-kernel.sh crash-patched
	guest/debian13/build-crash-image.sh $(DEBIAN13) $(DEBIAN13_CRASH)
	expect-tests/deb/crash.exp $(DEBIAN13_CRASH) $(DEBIAN13).boot $(BUILD)/kmsg-raw \
		$(KBUILD)-crash-patched.debs $(KBUILD)-crash-vanilla.debs

# The test guest on this terminal, with a shell, to try payloads by hand:
# make run (the patched kernel), make run FLAVOUR=vanilla, APPEND="..." for
# more of the kernel command line.  Leave with "reboot -f" or Ctrl-a x.
run: kernels initramfs
	qemu-system-x86_64 -accel tcg -m 256 -bios /usr/share/qemu/qboot.rom \
		-display none -no-reboot -serial mon:stdio \
		-kernel $(KBUILD)-$(FLAVOUR)/arch/x86/boot/bzImage \
		-initrd $(INITRAMFS) -append "console=ttyS0 printk.devkmsg=on \
		tsc=reliable kescape.interactive $(APPEND)"

# The expect suite RUNS times in a row (LOAD=1: with a CPU load beside it).
RUNS ?= 20
soak-locked: kernels initramfs tools
	expect-tests/soak $(RUNS) $(VANILLA) $(PATCHED) $(INITRAMFS)

# Every prefix of the series builds without a warning on every
# configuration and every patch is checkpatch --strict clean: the
# maintainer's matrix.  make check runs the same script without --full:
# every prefix on the test configuration, the whole series on the others.
check-series-locked: kernels
	scripts/check-series.sh --full

# The helper's instructions per byte under callgrind and its cost against
# memcpy() (userspace build of the same source), kescape-filter against
# cat -v, vsnprintf()'s instructions per call in both kernels' own
# lib/vsprintf.o, and in the guest hidden printk() calls, patched against
# vanilla, and the console emission cost, policy off against allowlist.
# Timings as ratios measured in one run.
bench-locked: kernels initramfs
	$(MAKE) -s -C tools bench
	tools/vsprintf-cost.sh $(KBUILD)-vanilla $(KBUILD)-patched
	expect-tests/bench.exp $(VANILLA) $(PATCHED) $(INITRAMFS)

# The cover letter's count of the printk-family formats that hold a
# control byte: scripts/printk-format-controls.cocci, run by Coccinelle's
# spatch on a pristine copy of KERNEL's source in a temporary folder.
# spatch parses only the files in which grep finds a string literal with
# such an escape (the script decides), and reads scoped_guard() as a
# loop.  Fails if KERNEL's cover letter gives another count.
COCCI_JOBS ?= 1
COVER_LETTER := patches/$(if $(filter 7.2,$(KERNEL)),,$(KERNEL)/)0000-cover-letter.patch
count-format-controls: deps
	@command -v spatch >/dev/null || apt-get install -y coccinelle >/dev/null
	@set -e; src=$$(mktemp -d); trap 'rm -rf "$$src"' EXIT; \
	tar -xf "$$(bash -c 'top=$$PWD; . scripts/tree.sh; fetch_sources >&2; echo $$tarball')" \
		-C "$$src" --strip-components=1; \
	printf '#define scoped_guard(n, a...) for (;;)\n#define scoped_cond_guard(n, f, a...) for (;;)\n' \
		> "$$src/.macros.h"; \
	(cd "$$src" && LC_ALL=C grep -rlP --include='*.[ch]' --exclude-dir=tools \
		--exclude-dir=scripts --exclude-dir=usr \
		'"([^"\\\n]|\\.)*(\\[abefrvE0-7x]|\\\\x%|[\x01-\x08\x0b-\x1f\x7f])' . | \
		sed 's/$$/\n/' > .files; \
	nice -n 19 spatch --very-quiet -D report --no-includes --include-headers \
		--jobs $(COCCI_JOBS) --macro-file .macros.h --file-groups .files \
		--sp-file $(CURDIR)/scripts/printk-format-controls.cocci) | tee "$$src/.out"; \
	got=$$(sed -n 's/^\([0-9]*\) formats in \([0-9]*\) files.*/\1 formats in \2 files/p' "$$src/.out"); \
	want=$$(tr '\n' ' ' < $(COVER_LETTER) | sed -n 's/.*In $(KERNEL), \([0-9]*\) format strings of printk-family calls, in \([0-9]*\) files.*/\1 formats in \2 files/p'); \
	if [ -z "$$want" ]; then echo "$(COVER_LETTER) gives no count for $(KERNEL)"; \
	elif [ "$$got" = "$$want" ]; then echo "ok: $(COVER_LETTER) gives the same count"; \
	else echo "FAILED: $(COVER_LETTER) says $$want, Coccinelle $$got"; exit 1; fi

clean:
	rm -rf $(BUILD)
