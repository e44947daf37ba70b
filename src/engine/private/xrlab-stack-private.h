/* xrlab-stack-private.h -- the stack parser's pieces shared by
 * xrlab-stack.c (layers, groups, the stack) and xrlab-stack-values.c
 * (numbers with units, gases)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-presets.h"
#include "xrlab-stack.h"

G_BEGIN_DECLS

struct _XrlabStack {
  gatomicrefcount ref;
  XrlabStackKind kind;
  char *text;
  GPtrArray *materials;     /* of XrlabStackMaterial * */
  GArray *layers;           /* of XrlabStackLayer */
  GArray *groups;           /* of XrlabStackGroup */
  int ambient;
  int substrate;
  double substrate_roughness_nm;
};

typedef struct {
  const char *name;
  double factor;     /* to nm, Pa, or (for temperatures) the offset to K */
} XrlabStackUnit;

extern const XrlabStackUnit xrlab_stack_length_units[];

typedef struct {
  const char *text;
  gsize len;
  gsize pos;
  XrlabStackKind kind;
  XrlabStack *stack;
  guint n_source;           /* layers written so far */
  /* The layer being parsed, for messages. */
  guint layer_number;
  gsize layer_start, layer_end;
  int *error_column;
  GError **error;
  GHashTable *names;        /* layer name → XrlabStackName, for this parse */
} XrlabStackParser;

/* What a solid layer's name resolved to. */
typedef struct {
  XrlabFormula *formula;
  const XrlabPreset *preset;   /* NULL when none has that name or formula */
} XrlabStackName;

/* Fields of one written layer. */
typedef struct {
  int material;
  double thickness_nm;      /* NAN when not given */
  double roughness_nm;
  gboolean is_gas;
} XrlabStackEntry;

/* A message about the stack as a whole / about the current layer, at byte
 * @pos (which also becomes the error column). Return FALSE. */
gboolean xrlab_stack_fail_at    (XrlabStackParser *p, XrlabStackError code, gsize pos,
                                 const char *format, ...) G_GNUC_PRINTF (4, 5);
gboolean xrlab_stack_fail_layer (XrlabStackParser *p, XrlabStackError code, gsize pos,
                                 const char *format, ...) G_GNUC_PRINTF (4, 5);

static inline gboolean
xrlab_stack_is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* [*a, *b) without surrounding blanks. */
void xrlab_stack_trim (const char *s, gsize *a, gsize *b);

/* A decimal number at s[a..b): the bytes it takes (0 if none), its value. */
gsize xrlab_stack_scan_number (const char *s, gsize a, gsize b, double *value);

/* A number and a unit of @units in s[a..b); *unit NULL when the rest is
 * not one of them, *unit_pos where the rest starts (b: no unit). */
gboolean xrlab_stack_scan_quantity (const char *s, gsize a, gsize b, const XrlabStackUnit *units,
                                    double *value, const XrlabStackUnit **unit, gsize *unit_pos);
const XrlabStackUnit *xrlab_stack_find_unit (const XrlabStackUnit *units, const char *s, gsize len);
const char *xrlab_stack_length_unit_list (void);

/* The formula at text[a..b) with the stack's columns in its messages. */
XrlabFormula *xrlab_stack_parse_formula_at (XrlabStackParser *p, gsize a, gsize b);

/* The preset named text[a..b) (case-insensitive), or NULL. */
const XrlabPreset *xrlab_stack_preset_by_name (const char *s, gsize a, gsize b);

/* The index of an equal material, or of a new one (taking @formula). */
int xrlab_stack_add_material (XrlabStackParser *p, XrlabFormula *formula, const char *name, gsize name_len,
                              double density, gboolean is_gas, double pressure, double temperature);

/* A gas layer text[a..b) with its '@' at @at (xrlab-stack-values.c). */
gboolean xrlab_stack_parse_gas (XrlabStackParser *p, gsize a, gsize at, gsize b, XrlabStackEntry *entry);

G_END_DECLS
