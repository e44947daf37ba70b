/* xrlab-reflect-private.h -- the plan and workspace shared by
 * xrlab-reflect.c (plans, curves) and xrlab-reflect-kernels.c (blocks)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-reflect.h"

G_BEGIN_DECLS

/* Points per block (a multiple of 4), and the most workspace a plan takes
 * before it uses smaller blocks. The loops over a block carry
 * XRLAB_IVDEP ("#pragma GCC ivdep"; clang, which has no such pragma, goes by
 * the restrict pointers): the arrays they read and write are distinct parts
 * of the workspace (the media above and below an interface may be one). */
#if defined(__GNUC__) && !defined(__clang__)
#define XRLAB_IVDEP _Pragma ("GCC ivdep")
#else
#define XRLAB_IVDEP
#endif
#define BLOCK_MAX 256
#define BLOCK_MIN 16
#define WORKSPACE_MAX_BYTES (8u << 20)

/* The largest real part of a Névot–Croce exponent (see the header). */
#define NC_EXPONENT_MAX 40.0

/* Per-point arrays of the workspace. */
enum {
  P_K,          /* k = 2π/λ [1/Å] */
  P_SN_RE,      /* n_0 sin θ */
  P_SN_IM,
  P_XS_RE,      /* the recursion's X, s and p */
  P_XS_IM,
  P_XP_RE,
  P_XP_IM,
  P_TS_RE,      /* the product τ, s and p */
  P_TS_IM,
  P_TP_RE,
  P_TP_IM,
  P_DR,         /* 1 + rY and 1/|1 + rY|² of the last step */
  P_DI,
  P_INV,
  P_FR,         /* the Névot–Croce factor f and f − 1 */
  P_FI,
  P_GR,
  P_GI,
  P_N
};

/* Per-medium arrays. */
enum { M_C_RE, M_C_IM, M_E_RE, M_E_IM, M_KZ_RE, M_KZ_IM, M_N };

/* Per-slab and per-interface arrays. */
enum { S_PH_RE, S_PH_IM, S_PH2_RE, S_PH2_IM, S_N };
enum { I_RS_RE, I_RS_IM, I_RP_RE, I_RP_IM, I_TS_RE, I_TS_IM, I_TP_RE, I_TP_IM, I_N };

struct _XrlabReflectPlan {
  XrlabStack *stack;
  XrlabEnergyGrid *grid;
  gsize n_e;
  gsize n_materials;
  double *delta;               /* n_materials × n_e */
  double *beta;

  /* The reduction. Medium 0 is the ambient. */
  gsize n_media;
  int *medium_material;        /* the material of each medium, -1 for vacuum */
  gsize n_slabs;
  guint *slab_medium;
  double *slab_d;              /* thickness [Å] */
  gsize n_ifaces;
  guint *iface_upper, *iface_lower;
  double *iface_sigma2;        /* σ² [Å²] */
  gsize n_layers;              /* N */
  guint *step_iface;           /* N + 1: interface j */
  guint *step_slab;            /* N + 1: the slab below interface j (j < N) */
  guint bottom;                /* medium N + 1 */

  /* The workspace. */
  gsize block;
  double *ws;
  double *pt[P_N];
  double *md;                  /* n_media × M_N × block */
  double *sl;                  /* n_slabs × S_N × block */
  double *fc;                  /* n_ifaces × I_N × block */
};

#define MD(plan, m, q) ((plan)->md + ((gsize) (m) * M_N + (q)) * (plan)->block)
#define SL(plan, u, q) ((plan)->sl + ((gsize) (u) * S_N + (q)) * (plan)->block)
#define FC(plan, i, q) ((plan)->fc + ((gsize) (i) * I_N + (q)) * (plan)->block)

/* Points [a0, a0 + n) of @angles at energy @e, or energies [e0, e0 + n) at
 * one angle, into the workspace, padded to @nb (a multiple of 4). */
void xrlab_reflect_fill_angles   (XrlabReflectPlan *plan, gsize e, const double *angles,
                                  gsize a0, gsize n, gsize nb);
void xrlab_reflect_fill_energies (XrlabReflectPlan *plan, double sin_theta, gsize e0,
                                  gsize n, gsize nb);

/* k_z, φ, r (and t), the recursion over the filled block. */
void xrlab_reflect_compute_block (XrlabReflectPlan *plan, gsize nb, gboolean want_t);

/* The workspace of @plan for its block size and reduction (g_free()
 * plan->ws): a plan's own, or one of a worker of a parallel map. */
void xrlab_reflect_plan_alloc_workspace (XrlabReflectPlan *plan);

/* Checks grazing angle @i of @n (for the message): 0 ≤ θ ≤ π/2. */
gboolean xrlab_reflect_check_angle (double angle, gsize i, gsize n, GError **error);

/* The checks of a curve or map request: the polarization of @out and
 * every angle. */
gboolean xrlab_reflect_check_map (const XrlabReflectOutput *out, const double *angles, gsize n,
                                  GError **error);

/* The curve vs every angle of @angles at energy @e into @out, from
 * @row_offset on. No checks. */
void xrlab_reflect_angles_row (XrlabReflectPlan *plan, gsize e, const double *angles,
                               gsize n_angles, const XrlabReflectOutput *out, gsize row_offset);

/* Whether @out asks for transmission; the block's @n results into @out at
 * offset, offset + stride, .... */
gboolean xrlab_reflect_wants_t  (const XrlabReflectOutput *out);
void     xrlab_reflect_write_block (XrlabReflectPlan *plan, const XrlabReflectOutput *out,
                                    gsize n, gsize offset, gsize stride);

G_END_DECLS
