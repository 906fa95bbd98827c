// Counter samples of the traced threads (PLX_COUNTERS, PLX_SAMPLE_MS,
// PLX_COUNTER_MODE, PLX_SCHED; docs/counters.md): the runtime starts it, each
// thread opens its perf_event group when it attaches, and samples go into the
// thread's own stream at state changes and from the kernel's periodic samples.
// Declared here, where the runtime calls it; src/counters/sampler.cc, compiled
// into the same runtime, implements it (counters build on capture, not the
// other way round).
#pragma once

#include <cstdint>

#include "capture/config.h"
#include "capture/registry.h"

namespace plx::capture {

/// From Runtime::Init once it runs: checks every event PLX_COUNTERS names on
/// the calling thread (one line on stderr for each that cannot be counted,
/// saying why), defines the counters, and returns the g_mask bits to add:
/// 1 << kSampleBit when anything is sampled, else 0.
uint32_t StartSampling(const Config& config, Registry& registry);

/// On a thread's first record (its stream attached): opens its group and
/// writes its first CPU sample.
void SamplingThreadStarted();

/// On a thread that detaches (ends) or finalizes the runtime, while it may
/// still record: its last samples; then its group is closed.
void SamplingThreadDone();

/// At Finalize: one line on stderr when the kernel dropped periodic samples.
void StopSampling();

}  // namespace plx::capture
