/* xrlab-clones.h -- function multiversioning for the vector kernels
 *
 * XRLAB_CLONES before a function builds it for x86-64-v4 (AVX-512),
 * x86-64-v3 (AVX2, FMA) and the baseline, the best chosen at load time.
 * (Not under ThreadSanitizer: it instruments the clones' resolvers, which
 * run before it is set up.)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 11 \
    && defined(__ELF__) && !defined(__SANITIZE_THREAD__)
# define XRLAB_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
# define XRLAB_CLONES
#endif
