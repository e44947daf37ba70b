/* xrlab-expr.h -- arithmetic expressions over parameter names
 *
 * The expressions of trspecfit model files ("3/4*GLP_01_A",
 * "GLP_01_x0 + 3.67", "sqrt(GLP_01_A)*2"): numbers, parameter names,
 * + - * / ** (power), unary plus and minus, parentheses, with Python's
 * precedence (** binds tighter than unary minus on its left and is right
 * associative: -a**b = -(a**b), a**-b = a**(-b), a**b**c = a**(b**c)), and
 * the functions of trspecfit's evaluator (asteval, i.e. Python's math):
 * sqrt, exp, log (natural), sin, cos, abs of one argument and pow (a, b) =
 * a ** b. Outside their domain they give what C's libm gives (NaN for
 * sqrt and log of negative numbers, −∞ for log 0), where Python would raise.
 *
 * An expression compiles to a postfix program: an array of instructions
 * whose operands index a constant pool and a table of referenced names. The
 * plan concatenates the programs of all expressions into one packed array
 * and binds every reference to a parameter row; the evaluators below run such
 * a program over plain arrays, without allocating.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XRLAB_EXPR_ERROR (xrlab_expr_error_quark ())
GQuark xrlab_expr_error_quark (void);

typedef enum {
  XRLAB_EXPR_ERROR_SYNTAX,     /* message: expression, column, what was expected */
  XRLAB_EXPR_ERROR_TOO_DEEP,   /* nesting beyond XRLAB_EXPR_MAX_DEPTH */
} XrlabExprError;

/* Largest evaluation stack a program may need. */
#define XRLAB_EXPR_MAX_DEPTH 64

typedef enum {
  XRLAB_EXPR_OP_CONST,   /* push consts[arg] */
  XRLAB_EXPR_OP_REF,     /* push refs[arg] */
  XRLAB_EXPR_OP_ADD,     /* a b -> a + b */
  XRLAB_EXPR_OP_SUB,     /* a b -> a - b */
  XRLAB_EXPR_OP_MUL,     /* a b -> a * b */
  XRLAB_EXPR_OP_DIV,     /* a b -> a / b */
  XRLAB_EXPR_OP_POW,     /* a b -> pow (a, b) */
  XRLAB_EXPR_OP_NEG,     /* a -> -a */
  XRLAB_EXPR_OP_SQRT,    /* a -> sqrt (a) */
  XRLAB_EXPR_OP_EXP,     /* a -> exp (a) */
  XRLAB_EXPR_OP_LOG,     /* a -> log (a) */
  XRLAB_EXPR_OP_SIN,     /* a -> sin (a) */
  XRLAB_EXPR_OP_COS,     /* a -> cos (a) */
  XRLAB_EXPR_OP_ABS,     /* a -> |a| */
  XRLAB_EXPR_N_OPS       /* the number of operations (not an operation) */
} XrlabExprOp;

typedef struct {
  guint32 op;    /* XrlabExprOp */
  guint32 arg;   /* constant index (CONST) or reference index (REF) */
} XrlabExprInsn;

typedef struct _XrlabExpr XrlabExpr;

/* Compiles @text. A syntax error names the column (1-based) and what was
 * expected there, e.g. "expression “3/4*(GLP_01_A”: expected “)” at
 * column 13". */
XrlabExpr *xrlab_expr_parse (const char *text, GError **error);
void       xrlab_expr_free  (XrlabExpr *expr);

const char *xrlab_expr_text (const XrlabExpr *expr);

/* The distinct names the expression refers to, in order of first use;
 * reference index i of the program is name i. */
guint       xrlab_expr_n_refs (const XrlabExpr *expr);
const char *xrlab_expr_ref    (const XrlabExpr *expr, guint i);

/* The text with every reference i written as @names[i] (numbers, operators,
 * function names and spacing kept): "-expFun_01_A" of a time model reads
 * "-GLP_01_x0_expFun_01_A" with full names. A new string. */
char       *xrlab_expr_rename (const XrlabExpr *expr, const char *const *names);

/* The program, its constant pool and the stack depth it needs. */
const XrlabExprInsn *xrlab_expr_code   (const XrlabExpr *expr, guint *n_code);
const double        *xrlab_expr_consts (const XrlabExpr *expr, guint *n_consts);
guint                xrlab_expr_depth  (const XrlabExpr *expr);

/* Runs a program. @refs holds the value of every reference index, @stack has
 * room for the program's depth. Returns the value. */
double xrlab_expr_eval (const XrlabExprInsn *code, guint n_code,
                        const double *consts, const double *refs,
                        double *stack);

/* Runs a program in forward mode: returns the value (the same bits as
 * xrlab_expr_eval) and writes into @grad[r] the partial derivative with
 * respect to reference r (0 <= r < @n_refs). @dstack has room for depth *
 * @n_refs doubles. The derivative of a ** b with respect to b uses log (a),
 * so it is NaN for a <= 0 where b depends on a reference; with a constant
 * exponent it is b * a ** (b - 1). The functions: sqrt' = 1/(2 sqrt a),
 * exp' = exp a, log' = 1/a, sin' = cos a, cos' = −sin a, abs' = sign a
 * (0 at 0); a function of an argument that depends on no reference has
 * derivative 0 (even where its own derivative is infinite). */
double xrlab_expr_eval_grad (const XrlabExprInsn *code, guint n_code,
                             const double *consts, const double *refs,
                             guint n_refs, double *stack, double *dstack,
                             double *grad);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabExpr, xrlab_expr_free)

G_END_DECLS
