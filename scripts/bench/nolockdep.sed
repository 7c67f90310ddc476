# sed script: turn scripts/kconfig/guest.config into the guest fragment of
# the benchmark kernels.  Lock debugging changes what the measured paths
# cost (lockdep hooks in every lock and BH section), so it is switched off;
# everything else stays as in the tested guest.
s/^CONFIG_PROVE_LOCKING=y$/# CONFIG_PROVE_LOCKING is not set/
s/^CONFIG_DEBUG_LOCKING_API_SELFTESTS=y$/# CONFIG_DEBUG_LOCKING_API_SELFTESTS is not set/
s/^CONFIG_DEBUG_ATOMIC_SLEEP=y$/# CONFIG_DEBUG_ATOMIC_SLEEP is not set/
