/* xrlab-expr.c -- arithmetic expressions over parameter names
 *
 * A recursive-descent parser emitting postfix code:
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := factor (('*' | '/') factor)*
 *   factor := ('+' | '-') factor | power
 *   power  := atom ('**' factor)?
 *   atom   := NUMBER | NAME | FUNCTION '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-expr.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-expr-error-quark, xrlab_expr_error)

struct _XrlabExpr {
  char *text;
  GArray *code;       /* XrlabExprInsn */
  GArray *consts;     /* double */
  GPtrArray *refs;    /* char*, distinct, order of first use */
  guint depth;
};

typedef struct {
  const char *text;
  const char *p;
  XrlabExpr *expr;
  guint depth;        /* current stack depth while emitting */
  guint nesting;      /* recursion depth of the parser */
  GError **error;
} Parser;

static void
skip_blanks (Parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t')
    ps->p++;
}

static int
column (Parser *ps)
{
  return (int) g_utf8_strlen (ps->text, ps->p - ps->text) + 1;
}

static gboolean
fail (Parser *ps, const char *what)
{
  if (*ps->p == '\0')
    g_set_error (ps->error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX,
                 _("expression “%s”: expected %s at the end (column %d)"),
                 ps->text, what, column (ps));
  else
    {
      gunichar c = g_utf8_get_char_validated (ps->p, -1);
      char found[8] = { 0 };
      if (c == (gunichar) -1 || c == (gunichar) -2)
        c = '?';
      g_unichar_to_utf8 (c, found);
      g_set_error (ps->error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX,
                   _("expression “%s”: expected %s at column %d, found “%s”"),
                   ps->text, what, column (ps), found);
    }
  return FALSE;
}

static void
emit (Parser *ps, XrlabExprOp op, guint32 arg)
{
  XrlabExprInsn insn = { op, arg };

  g_array_append_val (ps->expr->code, insn);
  if (op == XRLAB_EXPR_OP_CONST || op == XRLAB_EXPR_OP_REF)
    {
      ps->depth++;
      ps->expr->depth = MAX (ps->expr->depth, ps->depth);
    }
  else if (op == XRLAB_EXPR_OP_ADD || op == XRLAB_EXPR_OP_SUB || op == XRLAB_EXPR_OP_MUL
           || op == XRLAB_EXPR_OP_DIV || op == XRLAB_EXPR_OP_POW)
    ps->depth--;
}

/* The functions an expression may call. */
static const struct {
  const char *name;
  guint n_args;
  XrlabExprOp op;
} functions[] = {
  { "sqrt", 1, XRLAB_EXPR_OP_SQRT },
  { "exp", 1, XRLAB_EXPR_OP_EXP },
  { "log", 1, XRLAB_EXPR_OP_LOG },
  { "sin", 1, XRLAB_EXPR_OP_SIN },
  { "cos", 1, XRLAB_EXPR_OP_COS },
  { "abs", 1, XRLAB_EXPR_OP_ABS },
  { "pow", 2, XRLAB_EXPR_OP_POW },
};

static gboolean parse_expr (Parser *ps);
static gboolean parse_factor (Parser *ps);
static gboolean enter (Parser *ps);
static gboolean parse_call (Parser *ps, const char *start, const char *name);

static gboolean
enter (Parser *ps)
{
  if (++ps->nesting > XRLAB_EXPR_MAX_DEPTH || ps->depth >= XRLAB_EXPR_MAX_DEPTH)
    {
      g_set_error (ps->error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_TOO_DEEP,
                   g_dngettext (GETTEXT_PACKAGE,
                                "expression “%s” is nested too deeply (at most %d level)",
                                "expression “%s” is nested too deeply (at most %d levels)",
                                XRLAB_EXPR_MAX_DEPTH),
                   ps->text, XRLAB_EXPR_MAX_DEPTH);
      return FALSE;
    }
  return TRUE;
}

/* NAME '(' args ')' with ps->p at the '(' and @start at the name. */
static gboolean
parse_call (Parser *ps, const char *start, const char *name)
{
  const char *open = ps->p;
  guint f, n_args = 0;

  for (f = 0; f < G_N_ELEMENTS (functions); f++)
    if (strcmp (functions[f].name, name) == 0)
      break;
  if (f == G_N_ELEMENTS (functions))
    {
      ps->p = start;
      g_set_error (ps->error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX,
                   _("expression “%s”: unknown function “%s” at column %d (functions: "
                     "sqrt, exp, log, sin, cos, abs, pow)"),
                   ps->text, name, column (ps));
      return FALSE;
    }
  ps->p++;
  if (!enter (ps))
    return FALSE;
  for (;;)
    {
      if (!parse_expr (ps))
        return FALSE;
      n_args++;
      skip_blanks (ps);
      if (*ps->p == ',' && n_args < functions[f].n_args)
        {
          ps->p++;
          continue;
        }
      if (*ps->p == ')' && n_args == functions[f].n_args)
        break;
      if (*ps->p == ',' || *ps->p == ')')
        {
          ps->p = open;
          g_set_error (ps->error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "expression “%s”: %s takes %u argument (column %d)",
                                    "expression “%s”: %s takes %u arguments (column %d)",
                                    functions[f].n_args),
                       ps->text, name, functions[f].n_args, column (ps));
          return FALSE;
        }
      return fail (ps, n_args < functions[f].n_args ? "“,”" : "“)”");
    }
  ps->p++;
  ps->nesting--;
  emit (ps, functions[f].op, 0);
  return TRUE;
}

static gboolean
parse_atom (Parser *ps)
{
  skip_blanks (ps);
  if (g_ascii_isdigit (*ps->p) || (*ps->p == '.' && g_ascii_isdigit (ps->p[1])))
    {
      const char *start = ps->p;
      char *end = NULL;
      g_autofree char *token = NULL;
      double v;

      while (g_ascii_isdigit (*ps->p))
        ps->p++;
      if (*ps->p == '.')
        {
          ps->p++;
          while (g_ascii_isdigit (*ps->p))
            ps->p++;
        }
      if ((*ps->p == 'e' || *ps->p == 'E')
          && (g_ascii_isdigit (ps->p[1])
              || ((ps->p[1] == '+' || ps->p[1] == '-') && g_ascii_isdigit (ps->p[2]))))
        {
          ps->p += 2;
          while (g_ascii_isdigit (*ps->p))
            ps->p++;
        }
      if (g_ascii_isalpha (*ps->p) || *ps->p == '_')
        return fail (ps, _("an operator"));
      token = g_strndup (start, ps->p - start);
      v = g_ascii_strtod (token, &end);
      if (!isfinite (v))
        {
          ps->p = start;
          return fail (ps, _("a finite number"));
        }
      g_array_append_val (ps->expr->consts, v);
      emit (ps, XRLAB_EXPR_OP_CONST, ps->expr->consts->len - 1);
      return TRUE;
    }
  if (g_ascii_isalpha (*ps->p) || *ps->p == '_')
    {
      const char *start = ps->p;
      g_autofree char *name = NULL;
      guint i;

      while (g_ascii_isalnum (*ps->p) || *ps->p == '_')
        ps->p++;
      name = g_strndup (start, ps->p - start);
      skip_blanks (ps);
      if (*ps->p == '(')
        return parse_call (ps, start, name);
      for (i = 0; i < ps->expr->refs->len; i++)
        if (strcmp (g_ptr_array_index (ps->expr->refs, i), name) == 0)
          break;
      if (i == ps->expr->refs->len)
        g_ptr_array_add (ps->expr->refs, g_steal_pointer (&name));
      emit (ps, XRLAB_EXPR_OP_REF, i);
      return TRUE;
    }
  if (*ps->p == '(')
    {
      ps->p++;
      if (!enter (ps) || !parse_expr (ps))
        return FALSE;
      ps->nesting--;
      skip_blanks (ps);
      if (*ps->p != ')')
        return fail (ps, "“)”");
      ps->p++;
      return TRUE;
    }
  return fail (ps, _("a number, a parameter name or “(”"));
}

static gboolean
parse_power (Parser *ps)
{
  if (!parse_atom (ps))
    return FALSE;
  skip_blanks (ps);
  if (ps->p[0] == '*' && ps->p[1] == '*')
    {
      ps->p += 2;
      if (!enter (ps) || !parse_factor (ps))
        return FALSE;
      ps->nesting--;
      emit (ps, XRLAB_EXPR_OP_POW, 0);
    }
  return TRUE;
}

static gboolean
parse_factor (Parser *ps)
{
  skip_blanks (ps);
  if (*ps->p == '-' || *ps->p == '+')
    {
      gboolean neg = *ps->p == '-';
      ps->p++;
      if (!enter (ps) || !parse_factor (ps))
        return FALSE;
      ps->nesting--;
      if (neg)
        emit (ps, XRLAB_EXPR_OP_NEG, 0);
      return TRUE;
    }
  return parse_power (ps);
}

static gboolean
parse_term (Parser *ps)
{
  if (!parse_factor (ps))
    return FALSE;
  for (;;)
    {
      skip_blanks (ps);
      if ((*ps->p == '*' && ps->p[1] != '*') || *ps->p == '/')
        {
          XrlabExprOp op = *ps->p == '*' ? XRLAB_EXPR_OP_MUL : XRLAB_EXPR_OP_DIV;
          ps->p++;
          if (!parse_factor (ps))
            return FALSE;
          emit (ps, op, 0);
        }
      else
        return TRUE;
    }
}

static gboolean
parse_expr (Parser *ps)
{
  if (!parse_term (ps))
    return FALSE;
  for (;;)
    {
      skip_blanks (ps);
      if (*ps->p == '+' || *ps->p == '-')
        {
          XrlabExprOp op = *ps->p == '+' ? XRLAB_EXPR_OP_ADD : XRLAB_EXPR_OP_SUB;
          ps->p++;
          if (!parse_term (ps))
            return FALSE;
          emit (ps, op, 0);
        }
      else
        return TRUE;
    }
}

XrlabExpr *
xrlab_expr_parse (const char *text, GError **error)
{
  g_autoptr(XrlabExpr) expr = g_new0 (XrlabExpr, 1);
  Parser ps = { text, text, expr, 0, 0, error };

  g_return_val_if_fail (text != NULL, NULL);

  expr->text = g_strdup (text);
  expr->code = g_array_new (FALSE, FALSE, sizeof (XrlabExprInsn));
  expr->consts = g_array_new (FALSE, FALSE, sizeof (double));
  expr->refs = g_ptr_array_new_with_free_func (g_free);

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX,
                   _("expression is not valid UTF-8"));
      return NULL;
    }
  skip_blanks (&ps);
  if (*ps.p == '\0')
    {
      g_set_error (error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_SYNTAX,
                   _("empty expression"));
      return NULL;
    }
  if (!parse_expr (&ps))
    return NULL;
  skip_blanks (&ps);
  if (*ps.p != '\0')
    {
      fail (&ps, *ps.p == ')' ? _("an operator (unbalanced “)”)") : _("an operator"));
      return NULL;
    }
  g_assert (ps.depth == 1);
  if (expr->depth > XRLAB_EXPR_MAX_DEPTH)
    {
      g_set_error (error, XRLAB_EXPR_ERROR, XRLAB_EXPR_ERROR_TOO_DEEP,
                   _("expression “%s” is nested too deeply (at most %d levels)"),
                   text, XRLAB_EXPR_MAX_DEPTH);
      return NULL;
    }
  return g_steal_pointer (&expr);
}

void
xrlab_expr_free (XrlabExpr *expr)
{
  if (expr == NULL)
    return;
  g_free (expr->text);
  if (expr->code)
    g_array_unref (expr->code);
  if (expr->consts)
    g_array_unref (expr->consts);
  if (expr->refs)
    g_ptr_array_unref (expr->refs);
  g_free (expr);
}

const char *
xrlab_expr_text (const XrlabExpr *expr)
{
  return expr->text;
}

guint
xrlab_expr_n_refs (const XrlabExpr *expr)
{
  return expr->refs->len;
}

const char *
xrlab_expr_ref (const XrlabExpr *expr, guint i)
{
  g_return_val_if_fail (i < expr->refs->len, NULL);
  return g_ptr_array_index (expr->refs, i);
}

char *
xrlab_expr_rename (const XrlabExpr *expr, const char *const *names)
{
  GString *out = g_string_new (NULL);
  const char *p = expr->text;

  /* the lexical rules of the parser: numbers (with exponents), names */
  while (*p)
    {
      if (g_ascii_isdigit (*p) || (*p == '.' && g_ascii_isdigit (p[1])))
        {
          const char *start = p;
          while (g_ascii_isdigit (*p) || *p == '.')
            p++;
          if ((*p == 'e' || *p == 'E')
              && (g_ascii_isdigit (p[1])
                  || ((p[1] == '+' || p[1] == '-') && g_ascii_isdigit (p[2]))))
            {
              p += 2;
              while (g_ascii_isdigit (*p))
                p++;
            }
          g_string_append_len (out, start, p - start);
        }
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *start = p, *q;
          guint i;

          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          for (q = p; *q == ' ' || *q == '\t'; q++)
            ;
          for (i = 0; *q != '(' && i < expr->refs->len; i++)
            {
              const char *ref = g_ptr_array_index (expr->refs, i);
              if (strlen (ref) == (gsize) (p - start) && strncmp (ref, start, p - start) == 0)
                break;
            }
          if (*q != '(' && i < expr->refs->len)
            g_string_append (out, names[i]);
          else
            g_string_append_len (out, start, p - start);
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

const XrlabExprInsn *
xrlab_expr_code (const XrlabExpr *expr, guint *n_code)
{
  *n_code = expr->code->len;
  return (const XrlabExprInsn *) expr->code->data;
}

const double *
xrlab_expr_consts (const XrlabExpr *expr, guint *n_consts)
{
  *n_consts = expr->consts->len;
  return (const double *) expr->consts->data;
}

guint
xrlab_expr_depth (const XrlabExpr *expr)
{
  return expr->depth;
}

/* f(a) of a one-argument function and, with @deriv, f'(a). */
static inline double
apply_fn (guint32 op, double a, double *deriv)
{
  double v, d;

  switch ((XrlabExprOp) op)
    {
    case XRLAB_EXPR_OP_SQRT:
      v = sqrt (a);
      d = 0.5 / v;
      break;
    case XRLAB_EXPR_OP_EXP:
      v = exp (a);
      d = v;
      break;
    case XRLAB_EXPR_OP_LOG:
      v = log (a);
      d = 1.0 / a;
      break;
    case XRLAB_EXPR_OP_SIN:
      v = sin (a);
      d = cos (a);
      break;
    case XRLAB_EXPR_OP_COS:
      v = cos (a);
      d = -sin (a);
      break;
    case XRLAB_EXPR_OP_ABS:
    default:
      v = fabs (a);
      d = (a > 0.0) ? 1.0 : (a < 0.0) ? -1.0 : 0.0;
      break;
    }
  if (deriv)
    *deriv = d;
  return v;
}

double
xrlab_expr_eval (const XrlabExprInsn *code, guint n_code, const double *consts,
                 const double *refs, double *stack)
{
  guint sp = 0;

  for (guint i = 0; i < n_code; i++)
    {
      switch ((XrlabExprOp) code[i].op)
        {
        case XRLAB_EXPR_OP_CONST:
          stack[sp++] = consts[code[i].arg];
          break;
        case XRLAB_EXPR_OP_REF:
          stack[sp++] = refs[code[i].arg];
          break;
        case XRLAB_EXPR_OP_ADD:
          sp--;
          stack[sp - 1] += stack[sp];
          break;
        case XRLAB_EXPR_OP_SUB:
          sp--;
          stack[sp - 1] -= stack[sp];
          break;
        case XRLAB_EXPR_OP_MUL:
          sp--;
          stack[sp - 1] *= stack[sp];
          break;
        case XRLAB_EXPR_OP_DIV:
          sp--;
          stack[sp - 1] /= stack[sp];
          break;
        case XRLAB_EXPR_OP_POW:
          sp--;
          stack[sp - 1] = pow (stack[sp - 1], stack[sp]);
          break;
        case XRLAB_EXPR_OP_NEG:
          stack[sp - 1] = -stack[sp - 1];
          break;
        case XRLAB_EXPR_OP_SQRT:
        case XRLAB_EXPR_OP_EXP:
        case XRLAB_EXPR_OP_LOG:
        case XRLAB_EXPR_OP_SIN:
        case XRLAB_EXPR_OP_COS:
        case XRLAB_EXPR_OP_ABS:
          stack[sp - 1] = apply_fn (code[i].op, stack[sp - 1], NULL);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return stack[0];
}

double
xrlab_expr_eval_grad (const XrlabExprInsn *code, guint n_code, const double *consts,
                      const double *refs, guint n_refs, double *stack,
                      double *dstack, double *grad)
{
  guint sp = 0;

  for (guint i = 0; i < n_code; i++)
    {
      double *da, *db;

      switch ((XrlabExprOp) code[i].op)
        {
        case XRLAB_EXPR_OP_CONST:
          stack[sp] = consts[code[i].arg];
          memset (dstack + (gsize) sp * n_refs, 0, n_refs * sizeof (double));
          sp++;
          break;
        case XRLAB_EXPR_OP_REF:
          stack[sp] = refs[code[i].arg];
          memset (dstack + (gsize) sp * n_refs, 0, n_refs * sizeof (double));
          dstack[(gsize) sp * n_refs + code[i].arg] = 1.0;
          sp++;
          break;
        case XRLAB_EXPR_OP_ADD:
        case XRLAB_EXPR_OP_SUB:
          sp--;
          da = dstack + (gsize) (sp - 1) * n_refs;
          db = dstack + (gsize) sp * n_refs;
          if (code[i].op == XRLAB_EXPR_OP_ADD)
            {
              stack[sp - 1] += stack[sp];
              for (guint r = 0; r < n_refs; r++)
                da[r] += db[r];
            }
          else
            {
              stack[sp - 1] -= stack[sp];
              for (guint r = 0; r < n_refs; r++)
                da[r] -= db[r];
            }
          break;
        case XRLAB_EXPR_OP_MUL:
          {
            double a, b;
            sp--;
            a = stack[sp - 1];
            b = stack[sp];
            da = dstack + (gsize) (sp - 1) * n_refs;
            db = dstack + (gsize) sp * n_refs;
            for (guint r = 0; r < n_refs; r++)
              da[r] = da[r] * b + a * db[r];
            stack[sp - 1] = a * b;
          }
          break;
        case XRLAB_EXPR_OP_DIV:
          {
            double a, b, q;
            sp--;
            a = stack[sp - 1];
            b = stack[sp];
            q = a / b;
            da = dstack + (gsize) (sp - 1) * n_refs;
            db = dstack + (gsize) sp * n_refs;
            for (guint r = 0; r < n_refs; r++)
              da[r] = (da[r] - q * db[r]) / b;
            stack[sp - 1] = q;
          }
          break;
        case XRLAB_EXPR_OP_POW:
          {
            double a, b, v, dv_da, lna = 0.0;
            gboolean b_varies = FALSE;
            sp--;
            a = stack[sp - 1];
            b = stack[sp];
            v = pow (a, b);
            da = dstack + (gsize) (sp - 1) * n_refs;
            db = dstack + (gsize) sp * n_refs;
            for (guint r = 0; r < n_refs; r++)
              b_varies |= db[r] != 0.0;
            dv_da = (b == 0.0) ? 0.0 : b * pow (a, b - 1.0);
            if (b_varies)
              lna = log (a);
            for (guint r = 0; r < n_refs; r++)
              da[r] = dv_da * da[r] + (db[r] != 0.0 ? v * lna * db[r] : 0.0);
            stack[sp - 1] = v;
          }
          break;
        case XRLAB_EXPR_OP_NEG:
          da = dstack + (gsize) (sp - 1) * n_refs;
          stack[sp - 1] = -stack[sp - 1];
          for (guint r = 0; r < n_refs; r++)
            da[r] = -da[r];
          break;
        case XRLAB_EXPR_OP_SQRT:
        case XRLAB_EXPR_OP_EXP:
        case XRLAB_EXPR_OP_LOG:
        case XRLAB_EXPR_OP_SIN:
        case XRLAB_EXPR_OP_COS:
        case XRLAB_EXPR_OP_ABS:
          {
            double f;
            da = dstack + (gsize) (sp - 1) * n_refs;
            stack[sp - 1] = apply_fn (code[i].op, stack[sp - 1], &f);
            for (guint r = 0; r < n_refs; r++)
              da[r] = (da[r] != 0.0) ? f * da[r] : 0.0;
          }
          break;
        default:
          g_assert_not_reached ();
        }
    }
  memcpy (grad, dstack, n_refs * sizeof (double));
  return stack[0];
}
