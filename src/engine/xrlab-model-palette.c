/* xrlab-model-palette.c -- every function of the vocabulary with the rows a
 * new component of it starts with (see xrlab-model-edit.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-edit.h"
#include "xrlab-fn.h"

#include <math.h>
#include <string.h>

#define INF INFINITY
#define ROW(n, v, vary, lo, hi) { n, v, vary, FALSE, lo, hi, NULL }

static const XrlabModelParamRow gauss[] = {
  ROW ("A", 10, TRUE, 1, 30), ROW ("x0", 85, TRUE, 82, 88), ROW ("SD", 1.2, TRUE, 0.5, 3) };
static const XrlabModelParamRow gauss_asym[] = {
  ROW ("A", 10, TRUE, 1, 30), ROW ("x0", 85, TRUE, 82, 88), ROW ("SD", 1.2, TRUE, 0.5, 3),
  ROW ("ratio", 1.5, TRUE, 0.5, 3) };
static const XrlabModelParamRow lorentz[] = {
  ROW ("A", 10, TRUE, 1, 30), ROW ("x0", 85, TRUE, 82, 88), ROW ("W", 2, TRUE, 0.5, 5) };
static const XrlabModelParamRow voigt[] = {
  ROW ("A", 10, TRUE, 1, 30), ROW ("x0", 85, TRUE, 82, 88), ROW ("SD", 1.2, TRUE, 0.5, 3),
  ROW ("W", 2, TRUE, 0.5, 5) };
static const XrlabModelParamRow gls[] = {
  ROW ("A", 10, TRUE, 1, 30), ROW ("x0", 85, TRUE, 82, 88), ROW ("F", 1.5, TRUE, 0.5, 3),
  ROW ("m", 0.3, TRUE, 0, 1) };
static const XrlabModelParamRow ds[] = {
  ROW ("A", 10, TRUE, 1, 30), ROW ("x0", 85, TRUE, 82, 88), ROW ("F", 1.5, TRUE, 0.5, 3),
  ROW ("alpha", 0.15, TRUE, 0, 0.5) };
static const XrlabModelParamRow offset[] = { ROW ("y0", 2, TRUE, 0, 10) };
static const XrlabModelParamRow linback[] = {
  ROW ("m", 0.5, TRUE, -2, 2), ROW ("b", 1, TRUE, 0, 5), ROW ("xStart", 81, FALSE, -INF, INF),
  ROW ("xStop", 89, FALSE, -INF, INF) };
static const XrlabModelParamRow shirley[] = { ROW ("pShirley", 4.0e-4, TRUE, 1.0e-9, 1) };
static const XrlabModelParamRow step[] = {
  ROW ("A", 1.5, TRUE, 0, 5), ROW ("t0", 0, FALSE, 0, 1) };
static const XrlabModelParamRow lin[] = {
  ROW ("m", 0.02, TRUE, -1, 1), ROW ("t0", 0, FALSE, 0, 1) };
static const XrlabModelParamRow exp_fun[] = {
  ROW ("A", 1, TRUE, 0, 5), ROW ("tau", 2.5, TRUE, 1, 10), ROW ("t0", 0, FALSE, 0, 1) };
static const XrlabModelParamRow sin_fun[] = {
  ROW ("A", 1, TRUE, 0, 5), ROW ("f", 0.05, TRUE, 0.01, 0.2), ROW ("phi", 0.3, TRUE, -3.15, 3.15),
  ROW ("t0", 0, FALSE, 0, 1) };
static const XrlabModelParamRow sindivx[] = {
  ROW ("A", 1, TRUE, 0, 5), ROW ("f", 0.05, TRUE, 0.01, 0.2), ROW ("t0", 0, FALSE, 0, 1) };
static const XrlabModelParamRow erf_fun[] = {
  ROW ("A", 1, TRUE, 0, 5), ROW ("SD", 5, TRUE, 1, 20), ROW ("t0", 20, FALSE, 0, 50) };
static const XrlabModelParamRow sqrt_fun[] = {
  ROW ("A", 0.2, TRUE, 0, 5), ROW ("t0", 0, FALSE, 0, 1) };
static const XrlabModelParamRow gaussconv[] = { ROW ("SD", 0.05, TRUE, 1.0e-6, 1) };
static const XrlabModelParamRow tauconv[] = { ROW ("tau", 1, TRUE, 0.1, 10) };
static const XrlabModelParamRow boxconv[] = { ROW ("width", 2, TRUE, 0.1, 20) };
static const XrlabModelParamRow pexpdecay[] = {
  ROW ("A", 200, TRUE, 10, 1000), ROW ("tau", 2, TRUE, 0.5, 10) };
static const XrlabModelParamRow plinear[] = {
  ROW ("m", -0.5, TRUE, -2, 2), ROW ("b", 0, FALSE, -1, 1) };
static const XrlabModelParamRow pgauss[] = {
  ROW ("A", 3, TRUE, 0.5, 10), ROW ("x0", 2, TRUE, 0, 4), ROW ("SD", 1.5, TRUE, 0.5, 5) };

#define ENTRY(name, kind, formula, rows) { name, kind, formula, G_N_ELEMENTS (rows), rows }

static const XrlabModelPaletteEntry palette[] = {
  ENTRY ("Gauss", XRLAB_MODEL_FN_PEAK, "A exp(-(x-x0)^2 / (2 SD^2))", gauss),
  ENTRY ("GaussAsym", XRLAB_MODEL_FN_PEAK,
         "Gauss with SD below x0 and SD·ratio from x0 on", gauss_asym),
  ENTRY ("Lorentz", XRLAB_MODEL_FN_PEAK, "A / (1 + (2 (x-x0)/W)^2)", lorentz),
  ENTRY ("Voigt", XRLAB_MODEL_FN_PEAK, "A Re w(z) / Re w(z0), z = (x-x0 + iW/2)/(SD √2)", voigt),
  ENTRY ("GLS", XRLAB_MODEL_FN_PEAK, "A [(1-m) exp(-4 ln2 u^2) + m/(1+4u^2)], u = (x-x0)/F",
         gls),
  ENTRY ("GLP", XRLAB_MODEL_FN_PEAK, "A exp(-4 ln2 (1-m) u^2) / (1 + 4 m u^2), u = (x-x0)/F",
         gls),
  ENTRY ("DS", XRLAB_MODEL_FN_PEAK,
         "A cos(π alpha/2 + (1-alpha) atan((x-x0)/F)) / (F^2 + (x-x0)^2)^((1-alpha)/2)", ds),
  ENTRY ("Offset", XRLAB_MODEL_FN_BACKGROUND, "y0", offset),
  ENTRY ("LinBack", XRLAB_MODEL_FN_BACKGROUND,
         "b below xStart, m (x-xStart) + b up to xStop, constant above", linback),
  ENTRY ("Shirley", XRLAB_MODEL_FN_BACKGROUND, "pShirley Σ_{j≥i} S_j of the peaks after it",
         shirley),
  ENTRY ("stepFun", XRLAB_MODEL_FN_TIME, "A for t ≥ t0", step),
  ENTRY ("linFun", XRLAB_MODEL_FN_TIME, "m (t-t0) for t ≥ t0", lin),
  ENTRY ("expFun", XRLAB_MODEL_FN_TIME, "A exp(-(t-t0)/tau) for t ≥ t0", exp_fun),
  ENTRY ("sinFun", XRLAB_MODEL_FN_TIME, "A sin(2π f (t-t0) + phi) for t ≥ t0", sin_fun),
  ENTRY ("sinDivX", XRLAB_MODEL_FN_TIME, "A sin(x)/x, x = 2π f (t-t0), for t ≥ t0", sindivx),
  ENTRY ("erfFun", XRLAB_MODEL_FN_TIME, "A/2 (1 + erf((t-t0)/(SD √2)))", erf_fun),
  ENTRY ("sqrtFun", XRLAB_MODEL_FN_TIME, "A sqrt(t-t0) for t ≥ t0", sqrt_fun),
  ENTRY ("gaussCONV", XRLAB_MODEL_FN_KERNEL, "exp(-u^2/(2 SD^2))", gaussconv),
  ENTRY ("expSymCONV", XRLAB_MODEL_FN_KERNEL, "exp(-|u|/tau)", tauconv),
  ENTRY ("expDecayCONV", XRLAB_MODEL_FN_KERNEL, "exp(-u/tau) for u ≥ 0", tauconv),
  ENTRY ("expRiseCONV", XRLAB_MODEL_FN_KERNEL, "exp(u/tau) for u ≤ 0", tauconv),
  ENTRY ("boxCONV", XRLAB_MODEL_FN_KERNEL, "1 for |u| ≤ width/2", boxconv),
  ENTRY ("pExpDecay", XRLAB_MODEL_FN_PROFILE, "A exp(-x/tau)", pexpdecay),
  ENTRY ("pLinear", XRLAB_MODEL_FN_PROFILE, "m x + b", plinear),
  ENTRY ("pGauss", XRLAB_MODEL_FN_PROFILE, "A exp(-(x-x0)^2/(2 SD^2))", pgauss),
  { "none", XRLAB_MODEL_FN_NONE, "nothing (a subcycle without dynamics)", 0, NULL },
};

G_STATIC_ASSERT (G_N_ELEMENTS (palette) == XRLAB_FN_COUNT);

const XrlabModelPaletteEntry *
xrlab_model_palette (gsize *n_entries)
{
  if (n_entries != NULL)
    *n_entries = G_N_ELEMENTS (palette);
  return palette;
}

const XrlabModelPaletteEntry *
xrlab_model_palette_find (const char *function)
{
  for (gsize i = 0; function != NULL && i < G_N_ELEMENTS (palette); i++)
    if (strcmp (palette[i].name, function) == 0)
      return &palette[i];
  return NULL;
}
