/* test-model.c -- model files: parsing, numbering, expressions, bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-expr.h"
#include "xrlab-init.h"
#include "xrlab-model.h"

/* ---- expressions ----------------------------------------------------------------------- */

static double
eval_text (const char *text, const double *refs)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabExpr) e = xrlab_expr_parse (text, &error);
  const XrlabExprInsn *code;
  const double *consts;
  guint n_code, n_consts;
  double stack[XRLAB_EXPR_MAX_DEPTH + 1];

  g_assert_no_error (error);
  code = xrlab_expr_code (e, &n_code);
  consts = xrlab_expr_consts (e, &n_consts);
  g_assert_cmpuint (xrlab_expr_depth (e), <=, XRLAB_EXPR_MAX_DEPTH);
  return xrlab_expr_eval (code, n_code, consts, refs, stack);
}

static void
test_expr_values (void)
{
  double r[] = { 2.0, 5.0 };

  g_assert_cmpfloat (eval_text ("3/4*8", NULL), ==, 6.0);
  g_assert_cmpfloat (eval_text ("-2**2", NULL), ==, -4.0);        /* Python: -(2**2) */
  g_assert_cmpfloat (eval_text ("2**-1", NULL), ==, 0.5);
  g_assert_cmpfloat (eval_text ("2**3**2", NULL), ==, 512.0);     /* right associative */
  g_assert_cmpfloat (eval_text ("(2**3)**2", NULL), ==, 64.0);
  g_assert_cmpfloat (eval_text ("1 - 2 - 3", NULL), ==, -4.0);
  g_assert_cmpfloat (eval_text ("8 / 4 / 2", NULL), ==, 1.0);
  g_assert_cmpfloat (eval_text ("+-+3", NULL), ==, -3.0);
  g_assert_cmpfloat (eval_text ("1.5e2 + .5 + 2.", NULL), ==, 152.5);
  g_assert_cmpfloat (eval_text ("GLP_01_x0 + 3.67", r), ==, 5.67);
  g_assert_cmpfloat (eval_text ("a*b - a/b + a**b", r), ==, 10.0 - 0.4 + 32.0);

  /* the functions of trspecfit's evaluator (asteval) */
  g_assert_cmpfloat (eval_text ("sqrt(16)", NULL), ==, 4.0);
  g_assert_cmpfloat (eval_text ("exp(0) + log(1)", NULL), ==, 1.0);
  g_assert_cmpfloat (eval_text ("abs(-a) * 3", r), ==, 6.0);
  g_assert_cmpfloat (eval_text ("pow(a, b)", r), ==, 32.0);
  g_assert_cmpfloat (eval_text ("pow (2, 3) ** 2", NULL), ==, 64.0);
  g_assert_cmpfloat (eval_text ("-sqrt(4)**2", NULL), ==, -4.0);
  g_assert_cmpfloat (eval_text ("sin(0) + cos(0)", NULL), ==, 1.0);
  g_assert_cmpfloat (eval_text ("sqrt(sqrt(a*8))", r), ==, 2.0);
  g_assert_cmpfloat_with_epsilon (eval_text ("log(exp(a)) * b", r), 10.0, 1e-14);
  g_assert_true (isnan (eval_text ("sqrt(-1)", NULL)));
}

static void
test_expr_refs_and_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabExpr) e = xrlab_expr_parse ("(a*b - a/b + a**b) / (c + 1) - -b"
                                             " + sqrt(a*b) - exp(c)*log(b) + sin(a)*cos(b*c)"
                                             " + abs(c - a) + pow(b, c)", &error);
  const XrlabExprInsn *code;
  const double *consts;
  guint n_code, n_consts;
  double refs[3] = { 1.7, 2.3, 0.4 }, grad[3], stack[XRLAB_EXPR_MAX_DEPTH];
  double dstack[3 * XRLAB_EXPR_MAX_DEPTH];

  g_assert_no_error (error);
  g_assert_cmpuint (xrlab_expr_n_refs (e), ==, 3);
  g_assert_cmpstr (xrlab_expr_ref (e, 0), ==, "a");
  g_assert_cmpstr (xrlab_expr_ref (e, 1), ==, "b");
  g_assert_cmpstr (xrlab_expr_ref (e, 2), ==, "c");
  code = xrlab_expr_code (e, &n_code);
  consts = xrlab_expr_consts (e, &n_consts);
  {
    double v = xrlab_expr_eval_grad (code, n_code, consts, refs, 3, stack, dstack, grad);
    g_assert_cmpfloat_with_epsilon (v, xrlab_expr_eval (code, n_code, consts, refs, stack), 1e-15);
    for (int r = 0; r < 3; r++)
      {
        double h = 1e-6, save = refs[r], fp, fm;
        refs[r] = save + h;
        fp = xrlab_expr_eval (code, n_code, consts, refs, stack);
        refs[r] = save - h;
        fm = xrlab_expr_eval (code, n_code, consts, refs, stack);
        refs[r] = save;
        g_assert_cmpfloat_with_epsilon (grad[r], (fp - fm) / (2 * h), 1e-7);
      }
  }
}

static void
test_expr_errors (void)
{
  static const struct {
    const char *text;
    const char *message;
  } bad[] = {
    { "3/4*(GLP_01_A", "expected “)” at the end (column 14)" },
    { "GLP_01_A +", "at the end" },
    { "GLP_01_A $ 2", "column 10, found “$”" },
    { "tanh(GLP_01_A)", "unknown function “tanh” at column 1 (functions: sqrt" },
    { "2 + pow(GLP_01_A)", "pow takes 2 arguments (column 8)" },
    { "sqrt(a, b)", "sqrt takes 1 argument (column 5)" },
    { "sqrt(a", "expected “)” at the end" },
    { "pow(a b)", "expected “,” at column 7" },
    { "2 3", "column 3" },
    { "GLP_01_A)", "unbalanced" },
    { "", "empty expression" },
    { "3x", "column 2" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabExpr) e = xrlab_expr_parse (bad[i].text, &error);
      g_assert_null (e);
      g_assert_error (error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX);
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("“%s”: message “%s” lacks “%s”", bad[i].text, error->message, bad[i].message);
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GString) deep = g_string_new ("a");
    for (int i = 0; i < 200; i++)
      {
        g_string_prepend (deep, "(");
        g_string_append (deep, ")");
      }
    g_assert_null (xrlab_expr_parse (deep->str, &error));
    g_assert_error (error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_TOO_DEEP);
  }
}

/* ---- parsing ------------------------------------------------------------------------------ */

static const char *block_style =
  "# Au 4f, block style\n"
  "base:\n"
  "  Offset:\n"
  "    y0: [200, True, 0, 500]\n"
  "  Shirley:\n"
  "    pShirley: [4.0E-4, True, 1.0E-9, 1.0]\n"
  "  GLP:\n"
  "    x0: [84.5, True, 82, 88]\n"           /* not in the function's order */
  "    A: [200, True, 0, 1000]\n"
  "    F: [1.0, static]\n"
  "    m: [0.3, False, -.inf, .inf]\n"
  "  GLP:\n"
  "    A: [\"3/4*GLP_01_A\"]\n"
  "    x0: ['GLP_01_x0 + 3.67']\n"
  "    F: [\"GLP_01_F\"]\n"
  "    m: [\"GLP_01_m\"]\n"
  "  Gauss:\n"
  "    A: [1, true]\n"
  "    x0: [80, false, 70, 90]\n"
  "    SD: [0.5, TRUE, 0.1, inf]\n";

static const char *flow_style =
  "base: {Offset: {y0: [200, True, 0, 500]}, Shirley: {pShirley: [4.0E-4, True, 1.0E-9, 1.0]},\n"
  "       GLP: {A: [200, True, 0, 1000], x0: [84.5, True, 82, 88], F: [1.0, static], m: [0.3, False, -.inf, .inf]},\n"
  "       GLP: {A: [\"3/4*GLP_01_A\"], x0: [\"GLP_01_x0 + 3.67\"], F: [\"GLP_01_F\"], m: [\"GLP_01_m\"]},\n"
  "       Gauss: {A: [1, true], x0: [80, false, 70, 90], SD: [0.5, TRUE, 0.1, inf]}}\n";

static XrlabModel *
model_from (const char *yaml, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (yaml, -1, "test.yaml", &error);
  XrlabModel *m;

  g_assert_no_error (error);
  m = xrlab_model_new (file, name, &error);
  g_assert_no_error (error);
  return m;
}

static void
test_parse (void)
{
  g_autoptr(XrlabModel) a = model_from (block_style, "base");
  g_autoptr(XrlabModel) b = model_from (flow_style, "base");
  static const char *names[] = {
    "Offset_y0", "Shirley_pShirley", "GLP_01_A", "GLP_01_x0", "GLP_01_F", "GLP_01_m",
    "GLP_02_A", "GLP_02_x0", "GLP_02_F", "GLP_02_m", "Gauss_01_A", "Gauss_01_x0", "Gauss_01_SD",
  };
  XrlabParamInfo info, info2;

  g_assert_cmpuint (xrlab_model_n_components (a), ==, 5);
  g_assert_cmpstr (xrlab_model_component_name (a, 0), ==, "Offset");
  g_assert_cmpstr (xrlab_model_component_name (a, 3), ==, "GLP_02");
  g_assert_cmpstr (xrlab_model_component_function (a, 3), ==, "GLP");
  g_assert_cmpstr (xrlab_model_component_name (a, 4), ==, "Gauss_01");
  g_assert_cmpuint (xrlab_model_n_params (a), ==, G_N_ELEMENTS (names));
  g_assert_cmpuint (xrlab_model_n_params (b), ==, G_N_ELEMENTS (names));
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      xrlab_model_get_param (a, i, &info);
      xrlab_model_get_param (b, i, &info2);
      g_assert_cmpstr (info.name, ==, names[i]);
      g_assert_cmpstr (info2.name, ==, names[i]);
      g_assert_cmpfloat (info.value, ==, info2.value);
      g_assert_cmpfloat (info.min, ==, info2.min);
      g_assert_cmpfloat (info.max, ==, info2.max);
      g_assert_cmpint (info.vary, ==, info2.vary);
      g_assert_cmpint (info.is_static, ==, info2.is_static);
      g_assert_cmpstr (info.expr, ==, info2.expr);
      g_assert_cmpint (xrlab_model_find_param (a, names[i]), ==, (gssize) i);
    }
  xrlab_model_get_param (a, 1, &info);
  g_assert_cmpfloat (info.value, ==, 4.0e-4);
  g_assert_cmpfloat (info.min, ==, 1.0e-9);
  g_assert_cmpint (info.line, ==, 6);
  g_assert_cmpstr (info.file, ==, "test.yaml");
  xrlab_model_get_param (a, 4, &info);          /* GLP_01_F: static */
  g_assert_false (info.vary);
  g_assert_true (info.is_static);
  g_assert_true (isinf (info.min) && info.min < 0 && isinf (info.max));
  xrlab_model_get_param (a, 5, &info);          /* GLP_01_m: explicit infinities */
  g_assert_true (isinf (info.min) && isinf (info.max));
  xrlab_model_get_param (a, 7, &info);          /* GLP_02_x0 */
  g_assert_cmpstr (info.expr, ==, "GLP_01_x0 + 3.67");
  g_assert_false (info.vary);
  g_assert_cmpint (xrlab_model_find_param (a, "GLP_03_A"), ==, -1);
}

static void
test_numbering (void)
{
  static const char *energy =
    "m:\n"
    "  GLP: {A: [1, True], x0: [84, True], F: [1, True], m: [0.3, True]}\n"
    "  Gauss: {A: [1, True], x0: [80, True], SD: [1, True]}\n"
    "  GLP: {A: [1, True], x0: [86, True], F: [1, True], m: [0.3, True]}\n";
  static const char *time_yaml =
    "one: {gaussCONV: {SD: [0.1, True]}, expFun: {A: [1, True], tau: [2, True], t0: [0, False]},\n"
    "      expFun: {A: [1, True], tau: [9, True], t0: [0, False]}}\n"
    "two: {expFun: {A: [\"-expFun_01_A\"], tau: [3, True], t0: [0, False]},\n"
    "      sinFun: {A: [1, True], f: [0.1, True], phi: [0, True], t0: [0, False]}}\n"
    "three: {none: {}}\n";
  static const char *profile_yaml = "p: {pExpDecay: {A: [1, True], tau: [2, True]}}\n";
  g_autoptr(XrlabModel) m = model_from (energy, "m");
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) tf = xrlab_model_file_new_from_data (time_yaml, -1, "time.yaml", &error);
  g_autoptr(XrlabModelFile) pf = xrlab_model_file_new_from_data (profile_yaml, -1, "p.yaml", &error);
  const char *models[] = { "one", "two", "three" };
  const char *prof[] = { "p" };
  XrlabParamInfo info;

  g_assert_no_error (error);
  g_assert_cmpint (xrlab_model_find_param (m, "GLP_02_x0"), ==, 8);
  g_assert_cmpint (xrlab_model_find_param (m, "Gauss_01_SD"), ==, 6);
  g_assert_true (xrlab_model_add_dynamics_from_file (m, "GLP_02_x0", tf, models, 3, 0.5, &error));
  g_assert_no_error (error);
  /* trspecfit's numbering across subcycles: one's expFun_01, expFun_02;
   * two's expFun (01 within its model) collides and becomes expFun_03 */
  {
    static const char *dyn[] = {
      "GLP_02_x0_gaussCONV_SD", "GLP_02_x0_expFun_01_A", "GLP_02_x0_expFun_01_tau",
      "GLP_02_x0_expFun_01_t0", "GLP_02_x0_expFun_02_A", "GLP_02_x0_expFun_02_tau",
      "GLP_02_x0_expFun_02_t0", "GLP_02_x0_expFun_03_A", "GLP_02_x0_expFun_03_tau",
      "GLP_02_x0_expFun_03_t0", "GLP_02_x0_sinFun_01_A", "GLP_02_x0_sinFun_01_f",
      "GLP_02_x0_sinFun_01_phi", "GLP_02_x0_sinFun_01_t0",
    };
    /* right after their parameter */
    for (gsize i = 0; i < G_N_ELEMENTS (dyn); i++)
      g_assert_cmpint (xrlab_model_find_param (m, dyn[i]), ==, 9 + (gssize) i);
    xrlab_model_get_param (m, 9 + 7, &info);
    g_assert_cmpstr (info.expr, ==, "-expFun_01_A");
    g_assert_cmpstr (info.host, ==, "GLP_02_x0");
    g_assert_cmpint (info.role, ==, XRLAB_PARAM_DYNAMICS);
    g_assert_cmpstr (info.component, ==, "expFun_03");
    xrlab_model_get_param (m, 8, &info);
    g_assert_true (info.has_dynamics);
    g_assert_false (info.has_profile);
  }
  g_assert_true (xrlab_model_add_profile_from_file (m, "GLP_01_A", pf, "p", &error));
  g_assert_no_error (error);
  g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_A_pExpDecay_01_tau"), ==, 2);
  g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0"), ==, 3);
  g_assert_true (xrlab_model_has_dynamics (m));
  g_assert_true (xrlab_model_has_profiles (m));
  (void) prof;

  /* a copy is independent */
  {
    g_autoptr(XrlabModel) c = xrlab_model_copy (m);
    g_assert_true (xrlab_model_set_value (c, "GLP_02_x0_expFun_01_tau", 4.5, NULL));
    xrlab_model_get_param (m, xrlab_model_find_param (m, "GLP_02_x0_expFun_01_tau"), &info);
    g_assert_cmpfloat (info.value, ==, 2.0);
    xrlab_model_get_param (c, xrlab_model_find_param (c, "GLP_02_x0_expFun_01_tau"), &info);
    g_assert_cmpfloat (info.value, ==, 4.5);
    g_assert_cmpuint (xrlab_model_n_params (c), ==, xrlab_model_n_params (m));
  }
}

static void
test_file_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (
    "a: {Gauss: {A: [1, True], x0: [0, True], SD: [1, True]}}\nb: nonsense\n", -1, "x.yaml", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (xrlab_model_file_n_models (f), ==, 2);
  g_assert_cmpstr (xrlab_model_file_model_name (f, 1), ==, "b");
  g_assert_cmpstr (xrlab_model_file_get_path (f), ==, "x.yaml");
  /* a broken model does not stop the others */
  {
    g_autoptr(XrlabModel) a = xrlab_model_new (f, "a", &error);
    g_assert_no_error (error);
    g_assert_nonnull (a);
  }
  g_assert_null (xrlab_model_load ("/nonexistent/models.yaml", "a", &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_FILE);
  g_assert_nonnull (strstr (error->message, "/nonexistent/models.yaml"));
}

/* ---- bad input: one clear error naming file, line, model, parameter ------------------------- */

typedef struct {
  const char *what;
  const char *yaml;
  const char *model;
  int code;
  const char *must[4];      /* substrings of the message */
} BadCase;

static const BadCase bad_energy[] = {
  { "wrong arity", "m:\n  Gauss:\n    A: [1, True, 0]\n    x0: [1, True]\n    SD: [1, True]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "model “m”", "Gauss_01_A", "found 3 items" } },
  { "five items", "m: {Gauss: {A: [1, True, 0, 2, 3], x0: [1, True], SD: [1, True]}}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:1:", "model “m”", "Gauss_01_A", "found 5 items" } },
  { "number without vary", "m:\n  Gauss:\n    A: [1]\n    x0: [1, True]\n    SD: [1, True]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "model “m”", "Gauss_01_A", "expression in quotes" } },
  { "min > max", "m:\n  Offset: {y0: [1, True, 0, 5]}\n  GLP: {A: [1, True], x0: [1, True], F: [1, True, 3, 2], m: [0.3, True]}\n",
    "m", XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "model “m”", "GLP_01_F", "min (3) is greater than max (2)" } },
  { "value outside", "m:\n  Gauss:\n    A: [1, True]\n    x0: [1, True]\n    SD: [7, True, 0, 5]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:5:", "model “m”", "Gauss_01_SD", "outside its bounds [0, 5]" } },
  { "value not a number", "m:\n  Gauss:\n    A: [abc, True]\n    x0: [1, True]\n    SD: [1, True]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "Gauss_01_A", "“abc” is not a finite number" } },
  { "bad vary", "m:\n  Gauss:\n    A: [1, yes]\n    x0: [1, True]\n    SD: [1, True]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "Gauss_01_A", "True, False, static, project or file", "“yes”" } },
  { "bad bound", "m:\n  Gauss:\n    A: [1, True, zero, 2]\n    x0: [1, True]\n    SD: [1, True]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "Gauss_01_A", "lower bound “zero”" } },
  { "unknown component", "m:\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n  GLQ: {A: [1, True]}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "model “m”", "unknown component “GLQ”", "GLP" } },
  { "time function in an energy model", "m:\n  expFun: {A: [1, True], tau: [1, True], t0: [0, False]}\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "model “m”", "“expFun” is a time function" } },
  { "kernel outside a time model", "m:\n  gaussCONV: {SD: [1, True]}\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "model “m”", "“gaussCONV” is a convolution kernel", "time model" } },
  { "background last", "m:\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n  Shirley: {pShirley: [0.01, True]}\n",
    "m", XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "model “m”", "Shirley, is a background" } },
  { "only a background", "m:\n  Offset: {y0: [1, True]}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "model “m”", "Offset, is a background" } },
  { "missing parameter", "m:\n  Gauss: {A: [1, True], x0: [1, True]}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "model “m”", "Gauss_01 lacks parameter “SD”", "A, x0, SD" } },
  { "unknown parameter", "m:\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True], W: [1, True]}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "model “m”", "Gauss_01 has no parameter “W”" } },
  { "repeated parameter", "m:\n  Gauss:\n    A: [1, True]\n    A: [2, True]\n    x0: [1, True]\n    SD: [1, True]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:4:", "model “m”", "“A” of Gauss_01 is given twice" } },
  { "repeated background", "m:\n  Offset: {y0: [1, True]}\n  Offset: {y0: [2, True]}\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_INVALID, { "test.yaml:3:", "model “m”", "“Offset” appears twice" } },
  { "parameter not a list", "m:\n  Gauss: {A: 5, x0: [1, True], SD: [1, True]}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "Gauss_01_A", "found a single value" } },
  { "unknown name in an expression", "m:\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n  Lorentz: {A: [\"Gauss_1_A\"], x0: [1, True], W: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_EXPR, { "test.yaml:3:", "model “m”", "Lorentz_01_A", "names “Gauss_1_A”" } },
  { "expression cycle", "m:\n  Gauss: {A: [\"Lorentz_01_A * 2\"], x0: [1, True], SD: [1, True]}\n  Lorentz: {A: [\"Gauss_01_A / 2\"], x0: [1, True], W: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_EXPR, { "test.yaml:", "model “m”", "depends on itself", "Gauss_01_A → Lorentz_01_A → Gauss_01_A" } },
  { "expression on itself", "m:\n  Gauss: {A: [\"Gauss_01_A + 1\"], x0: [1, True], SD: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_EXPR, { "test.yaml:2:", "Gauss_01_A", "depends on itself" } },
  { "expression syntax", "m:\n  Gauss: {A: [\"3/4*(Gauss_01_SD\"], x0: [1, True], SD: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_EXPR, { "test.yaml:2:", "model “m”", "Gauss_01_A", "expected “)”" } },
  { "LinBack xStart >= xStop", "m:\n  LinBack: {m: [1, True], b: [0, True], xStart: [5, False], xStop: [2, False]}\n  Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}\n",
    "m", XRLAB_MODEL_ERROR_INVALID, { "test.yaml:2:", "LinBack_xStart", "xStart < xStop" } },
  { "empty model", "m:\nn: {Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}}\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:1:", "model “m” has no components" } },
  { "no such model", "m: {Gauss: {A: [1, True], x0: [1, True], SD: [1, True]}}\n", "base",
    XRLAB_MODEL_ERROR_NOT_FOUND, { "test.yaml", "no model “base”", "models: m" } },
  { "components not a mapping", "m: [Gauss, GLP]\n", "m",
    XRLAB_MODEL_ERROR_INVALID, { "test.yaml:1:", "model “m”", "found a list" } },
};

static void
check_message (const char *what, const GError *error, const char *const *must)
{
  for (int i = 0; i < 4 && must[i]; i++)
    if (strstr (error->message, must[i]) == NULL)
      g_error ("%s: message “%s” lacks “%s”", what, error->message, must[i]);
}

static void
test_bad_energy (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (bad_energy); i++)
    {
      const BadCase *c = &bad_energy[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (c->yaml, -1, "test.yaml", &error);
      g_autoptr(XrlabModel) m = NULL;

      g_assert_no_error (error);
      m = xrlab_model_new (f, c->model, &error);
      if (m != NULL)
        g_error ("%s: accepted", c->what);
      g_assert_error (error, XRLAB_MODEL_ERROR, c->code);
      check_message (c->what, error, c->must);
    }
}

static void
test_bad_files (void)
{
  static const BadCase cases[] = {
    { "YAML syntax", "m:\n  Gauss: {A: [1, True], x0: [1, True]\n  GLP: x\n", NULL,
      XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml:3:", "YAML syntax error" } },
    { "tab indentation", "m:\n\tGauss: {}\n", NULL, XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml:2:", "YAML syntax error" } },
    { "duplicate model", "m: {Offset: {y0: [1, True]}}\nn: {}\nm: {}\n", NULL,
      XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml:3:", "model “m” is defined twice (first at line 1)" } },
    { "top level list", "- m\n- n\n", NULL, XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml:1:", "expected model names", "found a list" } },
    { "empty file", "# nothing\n", NULL, XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml", "holds no models" } },
    { "two documents", "m: {}\n---\nn: {}\n", NULL, XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml:2:", "one YAML document" } },
    { "alias", "x: &a {y0: [1, True]}\nm: {Offset: *a}\n", NULL, XRLAB_MODEL_ERROR_SYNTAX, { "test.yaml:2:", "aliases" } },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (cases[i].yaml, -1, "test.yaml", &error);
      if (f != NULL)
        g_error ("%s: accepted", cases[i].what);
      g_assert_error (error, XRLAB_MODEL_ERROR, cases[i].code);
      check_message (cases[i].what, error, cases[i].must);
    }
}

static const char *energy_ok =
  "m:\n"
  "  Offset: {y0: [1, True]}\n"
  "  GLP: {A: [10, True], x0: [84, True], F: [1, True], m: [0.3, True]}\n"
  "  GLP: {A: [\"GLP_01_A/2\"], x0: [\"GLP_01_x0 + 3\"], F: [1, True], m: [0.3, True]}\n";

static const char *time_bad =
  "ok: {expFun: {A: [1, True], tau: [2, True], t0: [0, False]}}\n"
  "conv_last: {expFun: {A: [1, True], tau: [2, True], t0: [0, False]},\n"
  "            gaussCONV: {SD: [0.1, True]}}\n"
  "only_kernel: {gaussCONV: {SD: [0.1, True]}}\n"
  "peak: {GLP: {A: [1, True], x0: [84, True], F: [1, True], m: [0.3, True]}}\n"
  "unknown: {expFn: {A: [1, True]}}\n"
  "profile_fn: {pLinear: {m: [1, True], b: [0, True]}}\n"
  "cross: {expFun: {A: [1, True], tau: [\"GLP_01_x0 / 20\"], t0: [0, False]}}\n"
  "arity: {expFun: {A: [1, True], tau: [2, True, 1], t0: [0, False]}}\n"
  "bounds: {expFun: {A: [1, True], tau: [20, True, 1, 10], t0: [0, False]}}\n"
  "none_params: {none: {A: [1, True]}}\n"
  "box_only: {boxCONV: {width: [1, True]}}\n";

typedef struct {
  const char *what;
  const char *param;
  const char *models;
  double freq;
  int code;
  const char *must[4];
} BadAttach;

static void
test_bad_dynamics (void)
{
  static const BadAttach cases[] = {
    { "no such parameter", "GLP_03_x0", "ok", 0, XRLAB_MODEL_ERROR_NOT_FOUND,
      { "model “m” has no parameter “GLP_03_x0”", "time dependence" } },
    { "expression parameter", "GLP_02_x0", "ok", 0, XRLAB_MODEL_ERROR_EXPR,
      { "test.yaml:4:", "model “m”", "GLP_02_x0", "follows the expression" } },
    { "no such time model", "GLP_01_x0", "MonoExp", 0, XRLAB_MODEL_ERROR_NOT_FOUND,
      { "time.yaml", "no time model “MonoExp”", "models: ok" } },
    { "kernel last", "GLP_01_x0", "conv_last", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:3:", "time model “conv_last”", "kernel gaussCONV is its last component" } },
    { "only a kernel", "GLP_01_x0", "only_kernel", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:4:", "“only_kernel”", "holds only kernels", "comes first among several" } },
    { "only a kernel as a subcycle", "GLP_01_x0", "only_kernel,ok,box_only", 0.5,
      XRLAB_MODEL_ERROR_INVALID, { "time.yaml:12:", "“box_only” holds only kernels" } },
    { "energy component", "GLP_01_x0", "peak", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:5:", "time model “peak”", "“GLP” is an energy component" } },
    { "unknown time function", "GLP_01_x0", "unknown", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:6:", "time model “unknown”", "unknown time function “expFn”", "expFun" } },
    { "profile function", "GLP_01_x0", "profile_fn", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:7:", "“pLinear” is a profile function" } },
    { "energy name in a time model", "GLP_01_x0", "cross", 0, XRLAB_MODEL_ERROR_EXPR,
      { "time.yaml:8:", "time model “cross”", "GLP_01_x0_expFun_01_tau", "names “GLP_01_x0”" } },
    { "arity in a time model", "GLP_01_x0", "arity", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:9:", "model “arity”", "GLP_01_x0_expFun_01_tau", "found 3 items" } },
    { "bounds in a time model", "GLP_01_x0", "bounds", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:10:", "GLP_01_x0_expFun_01_tau", "outside its bounds" } },
    { "none with parameters", "GLP_01_x0", "none_params", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml:11:", "takes no parameters" } },
    { "frequency with one model", "GLP_01_x0", "ok", 0.25, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml", "GLP_01_x0", "needs several time models" } },
    { "several models without a frequency", "GLP_01_x0", "ok,ok", 0, XRLAB_MODEL_ERROR_INVALID,
      { "time.yaml", "GLP_01_x0", "needs a frequency" } },
    { "dynamics on a dynamics parameter", "GLP_01_x0_expFun_01_tau", "ok", 0, XRLAB_MODEL_ERROR_INVALID,
      { "GLP_01_x0_expFun_01_tau", "attaches only to parameters of the energy model" } },
    { "twice", "GLP_01_x0", "ok", 0, XRLAB_MODEL_ERROR_INVALID,
      { "GLP_01_x0", "already has time dependence" } },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) tf = xrlab_model_file_new_from_data (time_bad, -1, "time.yaml", &error);

  g_assert_no_error (error);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(XrlabModel) m = model_from (energy_ok, "m");
      g_auto(GStrv) models = g_strsplit (cases[i].models, ",", -1);
      gsize before;
      const char *ok[] = { "ok" };

      if (strcmp (cases[i].what, "dynamics on a dynamics parameter") == 0
          || strcmp (cases[i].what, "twice") == 0)
        g_assert_true (xrlab_model_add_dynamics_from_file (m, "GLP_01_x0", tf, ok, 1, 0, NULL));
      before = xrlab_model_n_params (m);
      if (xrlab_model_add_dynamics_from_file (m, cases[i].param, tf, (const char *const *) models,
                                              g_strv_length (models), cases[i].freq, &error))
        g_error ("%s: accepted", cases[i].what);
      g_assert_error (error, XRLAB_MODEL_ERROR, cases[i].code);
      check_message (cases[i].what, error, cases[i].must);
      g_clear_error (&error);
      /* a refused attachment leaves the model as it was */
      g_assert_cmpuint (xrlab_model_n_params (m), ==, before);
    }
}

static void
test_bad_profiles (void)
{
  static const char *pyaml =
    "ok: {pLinear: {m: [0.1, True], b: [0, True]}}\n"
    "time_fn: {expFun: {A: [1, True], tau: [2, True], t0: [0, False]}}\n"
    "unknown_name: {pLinear: {m: [\"pGauss_01_A * 0.1\"], b: [0, False]}}\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) pf = xrlab_model_file_new_from_data (pyaml, -1, "profile.yaml", &error);
  g_autoptr(XrlabModel) m = model_from (energy_ok, "m");

  g_assert_no_error (error);
  g_assert_false (xrlab_model_add_profile_from_file (m, "GLP_01_x0", pf, "time_fn", &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID);
  check_message ("time function as profile", error,
                 (const char *const[]) { "profile.yaml:2:", "“expFun” is not a profile function", NULL, NULL });
  g_clear_error (&error);
  g_assert_false (xrlab_model_add_profile_from_file (m, "GLP_01_x0", pf, "unknown_name", &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_EXPR);
  check_message ("unknown profile name", error,
                 (const char *const[]) { "profile.yaml:3:", "GLP_01_x0_pLinear_01_m", "names “pGauss_01_A”", NULL });
  g_clear_error (&error);
  g_assert_false (xrlab_model_add_profile_from_file (m, "GLP_02_A", pf, "ok", &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_EXPR);
  g_clear_error (&error);
  g_assert_false (xrlab_model_add_profile_from_file (m, "GLP_09_A", pf, "ok", &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (xrlab_model_add_profile_from_file (m, "GLP_01_x0", pf, "ok", &error));
  g_assert_no_error (error);
  g_assert_false (xrlab_model_add_profile_from_file (m, "GLP_01_x0", pf, "ok", &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "already has a profile"));
}

/* Energy expressions may name time-dependence parameters attached later; a
 * name that stays unknown is refused when the plan is built. */
static void
test_deferred_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_from (
    "m:\n  GLP: {A: [10, True], x0: [84, True], F: [1, True], m: [0.3, True]}\n"
    "  Gauss: {A: [\"GLP_01_x0_expFun_01_A * 3\"], x0: [80, True], SD: [1, True]}\n", "m");
  g_autoptr(XrlabModel) bad = NULL;
  g_autoptr(XrlabModelFile) f = NULL;

  f = xrlab_model_file_new_from_data ("m:\n  Gauss: {A: [\"Nope_01_A\"], x0: [80, True], SD: [1, True]}\n",
                                      -1, "test.yaml", &error);
  g_assert_no_error (error);
  bad = xrlab_model_new (f, "m", &error);
  g_assert_null (bad);
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_EXPR);
  g_assert_nonnull (strstr (error->message, "“Nope_01_A”"));
  g_clear_error (&error);
  g_assert_nonnull (m);
}

static void
test_set (void)
{
  g_autoptr(XrlabModel) m = model_from (block_style, "base");
  g_autoptr(GError) error = NULL;
  XrlabParamInfo info;

  g_assert_true (xrlab_model_set_bounds (m, "GLP_01_A", 100, 300, &error));
  g_assert_false (xrlab_model_set_bounds (m, "GLP_01_A", 300, 100, &error));
  g_assert_nonnull (strstr (error->message, "GLP_01_A"));
  g_clear_error (&error);
  g_assert_false (xrlab_model_set_bounds (m, "GLP_01_A", 250, 300, &error));  /* value 200 outside */
  g_assert_nonnull (strstr (error->message, "outside its bounds"));
  g_clear_error (&error);
  g_assert_false (xrlab_model_set_value (m, "GLP_01_A", NAN, &error));
  g_assert_nonnull (strstr (error->message, "not finite"));
  g_clear_error (&error);
  g_assert_true (xrlab_model_set_vary (m, "GLP_01_F", TRUE, &error));
  xrlab_model_get_param (m, 4, &info);
  g_assert_true (info.vary);
  g_assert_false (info.is_static);
  g_assert_false (xrlab_model_set_vary (m, "GLP_02_A", TRUE, &error));
  g_assert_nonnull (strstr (error->message, "3/4*GLP_01_A"));
}

/* vary levels of multi-file projects (trspecfit's test-models/project_*.yaml) */
static void
test_share (void)
{
  g_autoptr(XrlabModel) m = model_from (
    "project_glp:\n"
    "  GLP:\n"
    "    A: [20, \"file\", 5, 25]\n"
    "    x0: [85.0, file, 82, 88]\n"
    "    F: [1.0, \"static\", 0.75, 2.5]\n"
    "    m: [0.3, Project, 0, 1]\n", "project_glp");
  g_autoptr(GError) error = NULL;
  XrlabParamInfo info;

  xrlab_model_get_param (m, 0, &info);
  g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_FILE);
  g_assert_true (info.vary);
  g_assert_false (info.is_static);
  xrlab_model_get_param (m, 1, &info);
  g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_FILE);
  xrlab_model_get_param (m, 2, &info);
  g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_NONE);
  g_assert_false (info.vary);
  g_assert_true (info.is_static);
  xrlab_model_get_param (m, 3, &info);
  g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_PROJECT);
  g_assert_true (info.vary);

  /* copies keep it; fixing a parameter ends its sharing */
  {
    g_autoptr(XrlabModel) c = xrlab_model_copy (m);
    xrlab_model_get_param (c, 3, &info);
    g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_PROJECT);
    g_assert_true (xrlab_model_set_vary (c, "GLP_01_m", FALSE, &error));
    xrlab_model_get_param (c, 3, &info);
    g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_NONE);
    g_assert_true (xrlab_model_set_share (c, "GLP_01_F", XRLAB_PARAM_SHARE_PROJECT, &error));
    xrlab_model_get_param (c, 2, &info);
    g_assert_true (info.vary);
    g_assert_false (info.is_static);
    g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_PROJECT);
    g_assert_true (xrlab_model_fix (c, "GLP_01_A", 21, &error));
    xrlab_model_get_param (c, 0, &info);
    g_assert_cmpint (info.share, ==, XRLAB_PARAM_SHARE_NONE);
    g_assert_no_error (error);
  }
}

/* What expression parameters are now, and time-model expressions with
 * their full names. */
static void
test_values_and_full_names (void)
{
  g_autoptr(XrlabModel) m = model_from (block_style, "base");
  g_autoptr(GError) error = NULL;
  g_autofree double *v = g_new (double, xrlab_model_n_params (m) + 8);
  XrlabParamInfo info;

  g_assert_true (xrlab_model_get_values (m, v, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (v[6], ==, 150.0);              /* GLP_02_A = 3/4*GLP_01_A */
  g_assert_cmpfloat (v[7], ==, 84.5 + 3.67);        /* GLP_02_x0 */
  g_assert_cmpfloat (v[2], ==, 200.0);
  g_assert_true (xrlab_model_set_value (m, "GLP_01_A", 300, &error));
  g_assert_true (xrlab_model_get_values (m, v, &error));
  g_assert_cmpfloat (v[6], ==, 225.0);

  {
    g_autoptr(XrlabModelFile) tf = xrlab_model_file_new_from_data (
      "neg: {expFun: {A: [-1, True], tau: [2, True], t0: [0, False]}}\n"
      "pos: {expFun: {A: [\"-expFun_01_A\"], tau: [\"2*expFun_01_tau + sqrt(1e-2)\"], "
      "t0: [\"GLP_01_x0_expFun_01_t0\"]}}\n", -1, "time.yaml", &error);
    const char *models[] = { "neg", "pos" };
    gssize i;

    g_assert_true (xrlab_model_add_dynamics_from_file (m, "GLP_01_x0", tf, models, 2, 0.5,
                                                       &error));
    g_assert_no_error (error);
    i = xrlab_model_find_param (m, "GLP_01_x0_expFun_02_A");
    xrlab_model_get_param (m, i, &info);
    g_assert_cmpstr (info.expr, ==, "-expFun_01_A");
    g_assert_cmpstr (info.expr_full, ==, "-GLP_01_x0_expFun_01_A");
    xrlab_model_get_param (m, i + 1, &info);
    g_assert_cmpstr (info.expr_full, ==, "2*GLP_01_x0_expFun_01_tau + sqrt(1e-2)");
    xrlab_model_get_param (m, i + 2, &info);
    g_assert_cmpstr (info.expr_full, ==, "GLP_01_x0_expFun_01_t0");
    xrlab_model_get_param (m, xrlab_model_find_param (m, "GLP_02_x0"), &info);
    g_assert_cmpstr (info.expr_full, ==, "GLP_01_x0 + 3.67");
    g_assert_true (xrlab_model_get_values (m, v, &error));
    g_assert_cmpfloat (v[i], ==, 1.0);
    g_assert_cmpfloat (v[i + 1], ==, 4.1);
    /* copies keep them */
    {
      g_autoptr(XrlabModel) c = xrlab_model_copy (m);
      xrlab_model_get_param (c, i, &info);
      g_assert_cmpstr (info.expr_full, ==, "-GLP_01_x0_expFun_01_A");
    }
  }

  /* an expression naming a parameter still to come */
  {
    g_autoptr(XrlabModel) d = model_from (
      "m:\n  GLP: {A: [10, True], x0: [84, True], F: [1, True], m: [0.3, True]}\n"
      "  Gauss: {A: [\"GLP_01_x0_expFun_01_A * 3\"], x0: [80, True], SD: [1, True]}\n", "m");
    g_assert_false (xrlab_model_get_values (d, v, &error));
    g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_EXPR);
  }
}

/* Issue "deeply nested model YAML": 50,000 "[" overflowed the stack of the
 * recursive tree reader; now a clear error names the line and the limit. */
static void
test_deep_nesting (void)
{
  g_autoptr(GString) text = g_string_new ("m:\n  GLP: ");
  g_autoptr(GString) ok = g_string_new ("m:\n  GLP:\n    A: ");
  g_autoptr(GError) error = NULL;
  XrlabModelFile *file;

  for (int i = 0; i < 50000; i++)
    g_string_append_c (text, '[');
  g_string_append_c (text, '\n');
  file = xrlab_model_file_new_from_data (text->str, (gssize) text->len, "deep.yaml", &error);
  g_assert_null (file);
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "deep.yaml:2:"));
  g_assert_nonnull (strstr (error->message, "256 levels"));
  g_clear_error (&error);

  /* 250 levels are read (and refused later for what they hold, not for the depth) */
  for (int i = 0; i < 250; i++)
    g_string_append_c (ok, '[');
  g_string_append (ok, "1");
  for (int i = 0; i < 250; i++)
    g_string_append_c (ok, ']');
  g_string_append_c (ok, '\n');
  file = xrlab_model_file_new_from_data (ok->str, (gssize) ok->len, "ok.yaml", &error);
  if (file == NULL)
    g_assert_null (strstr (error->message, "levels"));
  xrlab_model_file_free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/expr/values", test_expr_values);
  g_test_add_func ("/expr/refs-and-gradient", test_expr_refs_and_grad);
  g_test_add_func ("/expr/errors", test_expr_errors);
  g_test_add_func ("/model/parse", test_parse);
  g_test_add_func ("/model/numbering", test_numbering);
  g_test_add_func ("/model/file-list", test_file_list);
  g_test_add_func ("/model/bad-energy", test_bad_energy);
  g_test_add_func ("/model/bad-files", test_bad_files);
  g_test_add_func ("/model/bad-dynamics", test_bad_dynamics);
  g_test_add_func ("/model/bad-profiles", test_bad_profiles);
  g_test_add_func ("/model/deferred-names", test_deferred_names);
  g_test_add_func ("/model/set", test_set);
  g_test_add_func ("/model/share", test_share);
  g_test_add_func ("/model/values-and-full-names", test_values_and_full_names);
  g_test_add_func ("/model/deep-nesting", test_deep_nesting);
  return g_test_run ();
}
