/* fuzz-expr.c -- parameter expressions (xrlab-expr.h)
 *
 * Invariants: a program that compiles fits its stated stack depth (at most
 * XRLAB_EXPR_MAX_DEPTH), refers only to its constants and references, and
 * evaluates (value and forward-mode gradient) without touching memory
 * beyond those; the value of eval and eval_grad agree; the expression's text
 * compiles again to the same program. A refused expression has a message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "fuzz-common.h"
#include "xrlab-expr.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init_once ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autoptr(XrlabExpr) e = NULL;
  g_autoptr(XrlabExpr) again = NULL;
  g_autoptr(GError) error = NULL;
  guint n_code = 0, n_consts = 0, n_refs, depth, n_code2 = 0;
  const XrlabExprInsn *code, *code2;
  g_autofree double *refs = NULL, *stack = NULL, *dstack = NULL, *grad = NULL;
  double v, vg;

  if (size > 4096)
    return 0;
  fuzz_init_once ();
  text = fuzz_string (data, size);
  e = xrlab_expr_parse (text, &error);
  if (e == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "refused without a message");
      return 0;
    }
  code = xrlab_expr_code (e, &n_code);
  xrlab_expr_consts (e, &n_consts);
  n_refs = xrlab_expr_n_refs (e);
  depth = xrlab_expr_depth (e);
  FUZZ_CHECK (n_code >= 1, "“%s”: an empty program", text);
  FUZZ_CHECK (depth >= 1 && depth <= XRLAB_EXPR_MAX_DEPTH, "“%s”: depth %u", text, depth);
  for (guint i = 0; i < n_code; i++)
    {
      if (code[i].op == XRLAB_EXPR_OP_CONST)
        FUZZ_CHECK (code[i].arg < n_consts, "“%s”: constant %u of %u", text, code[i].arg, n_consts);
      else if (code[i].op == XRLAB_EXPR_OP_REF)
        FUZZ_CHECK (code[i].arg < n_refs, "“%s”: reference %u of %u", text, code[i].arg, n_refs);
      else
        FUZZ_CHECK (code[i].op < XRLAB_EXPR_N_OPS, "“%s”: op %u", text, code[i].op);
    }
  for (guint r = 0; r < n_refs; r++)
    FUZZ_CHECK (xrlab_expr_ref (e, r) != NULL && xrlab_expr_ref (e, r)[0] != '\0',
                "“%s”: reference %u has no name", text, r);

  /* exactly the stated depth: sanitizers see any overrun */
  refs = g_new (double, MAX (n_refs, 1));
  for (guint r = 0; r < n_refs; r++)
    refs[r] = 0.5 + r;
  stack = g_new (double, depth);
  dstack = g_new (double, (gsize) depth * MAX (n_refs, 1));
  grad = g_new (double, MAX (n_refs, 1));
  v = xrlab_expr_eval (code, n_code, xrlab_expr_consts (e, &n_consts), refs, stack);
  vg = xrlab_expr_eval_grad (code, n_code, xrlab_expr_consts (e, &n_consts), refs, n_refs, stack,
                             dstack, grad);
  FUZZ_CHECK ((isnan (v) && isnan (vg)) || v == vg, "“%s”: eval %.17g, eval_grad %.17g", text, v,
              vg);

  again = xrlab_expr_parse (xrlab_expr_text (e), &error);
  FUZZ_CHECK (again != NULL, "“%s” does not compile again from its text", text);
  code2 = xrlab_expr_code (again, &n_code2);
  FUZZ_CHECK (n_code2 == n_code && memcmp (code, code2, n_code * sizeof *code) == 0,
              "“%s”: its text compiles to another program", text);
  return 0;
}
