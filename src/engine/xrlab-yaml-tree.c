/* xrlab-yaml-tree.c -- a YAML document read with libyaml's event API into a
 * tree that keeps order, repeats and lines (see xrlab-yaml-tree.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-yaml-tree.h"
#include "xrlab-model.h"
#include "xrlab-util.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <yaml.h>

void
xrlab_ynode_free (XrlabYNode *n)
{
  if (n == NULL)
    return;
  g_free (n->text);
  if (n->kids)
    g_ptr_array_unref (n->kids);
  g_free (n);
}

static XrlabYNode *
ynode_new (XrlabYNodeKind kind, const yaml_mark_t *mark)
{
  XrlabYNode *n = g_new0 (XrlabYNode, 1);

  n->kind = kind;
  n->line = (int) mark->line + 1;
  n->col = (int) mark->column + 1;
  if (kind != XRLAB_YN_SCALAR)
    n->kids = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_ynode_free);
  return n;
}

gboolean
xrlab_ynode_is_null (const XrlabYNode *n)
{
  return n->kind == XRLAB_YN_SCALAR && n->plain
         && (n->text[0] == '\0' || strcmp (n->text, "~") == 0
             || g_ascii_strcasecmp (n->text, "null") == 0);
}

const char *
xrlab_ynode_kind_name (const XrlabYNode *n)
{
  switch (n->kind)
    {
    case XRLAB_YN_SCALAR:
      return xrlab_ynode_is_null (n) ? _("nothing") : _("a single value");
    case XRLAB_YN_SEQ:
      return _("a list");
    case XRLAB_YN_MAP:
      return _("a mapping");
    default:
      return "?";
    }
}

/* Lists and mappings nest at most this deep (a model file needs 4): the
 * reader recurses once per level. */
#define MAX_DEPTH 256

typedef struct {
  yaml_parser_t parser;
  const char *file;
  GError **error;
  int depth;
} YReader;

static gboolean
yread_event (YReader *r, yaml_event_t *event)
{
  if (!yaml_parser_parse (&r->parser, event))
    {
      const yaml_parser_t *p = &r->parser;
      if (p->context)
        g_set_error (r->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                     _("%s:%d:%d: YAML syntax error: %s %s (line %d)"),
                     r->file, (int) p->problem_mark.line + 1,
                     (int) p->problem_mark.column + 1,
                     p->problem ? p->problem : _("invalid YAML"), p->context,
                     (int) p->context_mark.line + 1);
      else
        g_set_error (r->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                     _("%s:%d:%d: YAML syntax error: %s"),
                     r->file, (int) p->problem_mark.line + 1,
                     (int) p->problem_mark.column + 1,
                     p->problem ? p->problem : _("invalid YAML"));
      return FALSE;
    }
  return TRUE;
}

/* Reads the node that starts with @event (consumed here). */
static XrlabYNode *
yread_node (YReader *r, yaml_event_t *event)
{
  XrlabYNode *node = NULL;

  switch (event->type)
    {
    case YAML_SCALAR_EVENT:
      node = ynode_new (XRLAB_YN_SCALAR, &event->start_mark);
      node->text = g_strndup ((const char *) event->data.scalar.value,
                              event->data.scalar.length);
      node->plain = event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
      yaml_event_delete (event);
      return node;

    case YAML_ALIAS_EVENT:
      {
        g_autofree char *anchor = xrlab_escape_text ((const char *) event->data.alias.anchor,
                                                     -1, XRLAB_ESCAPE_MAX_CHARS);
        g_set_error (r->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                     _("%s:%d: YAML aliases (*%s) are not supported in model files"),
                     r->file, (int) event->start_mark.line + 1, anchor);
      }
      yaml_event_delete (event);
      return NULL;

    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
      {
        gboolean is_map = event->type == YAML_MAPPING_START_EVENT;
        yaml_event_type_t end = is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;

        if (r->depth >= MAX_DEPTH)
          {
            g_set_error (r->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                         _("%s:%d:%d: lists and mappings nest more than %d levels deep "
                           "(a model file needs 4)"),
                         r->file, (int) event->start_mark.line + 1,
                         (int) event->start_mark.column + 1, MAX_DEPTH);
            yaml_event_delete (event);
            return NULL;
          }
        r->depth++;
        node = ynode_new (is_map ? XRLAB_YN_MAP : XRLAB_YN_SEQ, &event->start_mark);
        yaml_event_delete (event);
        for (;;)
          {
            yaml_event_t next;
            XrlabYNode *kid;

            if (!yread_event (r, &next))
              goto fail;
            if (next.type == end)
              {
                yaml_event_delete (&next);
                break;
              }
            if (is_map && node->kids->len % 2 == 0 && next.type != YAML_SCALAR_EVENT)
              {
                g_set_error (r->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                             _("%s:%d: a key must be a plain name, not a list or mapping"),
                             r->file, (int) next.start_mark.line + 1);
                yaml_event_delete (&next);
                goto fail;
              }
            kid = yread_node (r, &next);
            if (kid == NULL)
              goto fail;
            g_ptr_array_add (node->kids, kid);
          }
        r->depth--;
        return node;
      }

    default:
      g_set_error (r->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                   _("%s:%d: unexpected YAML event"), r->file,
                   (int) event->start_mark.line + 1);
      yaml_event_delete (event);
      return NULL;
    }

fail:
  xrlab_ynode_free (node);
  return NULL;
}

/* Reads a whole stream: exactly one document. */
XrlabYNode *
xrlab_yaml_read_document (const char *data, gsize len, const char *file, GError **error)
{
  YReader r = { .file = file, .error = error };
  XrlabYNode *root = NULL;
  yaml_event_t event;
  gboolean done = FALSE;

  if (!yaml_parser_initialize (&r.parser))
    g_error ("out of memory");
  yaml_parser_set_input_string (&r.parser, (const unsigned char *) data, len);

  while (!done)
    {
      if (!yread_event (&r, &event))
        goto fail;
      switch (event.type)
        {
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
          yaml_event_delete (&event);
          break;
        case YAML_DOCUMENT_START_EVENT:
          if (root != NULL)
            {
              g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                           _("%s:%d: a model file holds one YAML document; a second "
                             "one starts here"),
                           file, (int) event.start_mark.line + 1);
              yaml_event_delete (&event);
              goto fail;
            }
          yaml_event_delete (&event);
          if (!yread_event (&r, &event))
            goto fail;
          if (event.type == YAML_DOCUMENT_END_EVENT)
            {
              yaml_event_delete (&event);
              break;
            }
          root = yread_node (&r, &event);
          if (root == NULL)
            goto fail;
          break;
        case YAML_STREAM_END_EVENT:
          yaml_event_delete (&event);
          done = TRUE;
          break;
        default:
          yaml_event_delete (&event);
          break;
        }
    }
  yaml_parser_delete (&r.parser);
  if (root == NULL || xrlab_ynode_is_null (root))
    {
      xrlab_ynode_free (root);
      g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                   _("%s: the file holds no models"), file);
      return NULL;
    }
  return root;

fail:
  yaml_parser_delete (&r.parser);
  xrlab_ynode_free (root);
  return NULL;
}
