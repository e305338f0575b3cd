/* sbwalk: the Python harness's compiled walks (spec/hash.md, spec/typed.md), so that a Python row's
 * timed loop can hash what its library decoded, as every compiled harness's loop does, at C speed.
 *
 *   hash_object(obj)      the tree form of the object hash over Python values: dict (and subclasses)
 *                         as map, list and tuple (and subclasses) as array, str, exact bytes / bytearray /
 *                         memoryview as binary, int (int64 and uint64 range), float, bool, None.
 *                         The same answers as serbench_py.hashing.hash_value, which it is tested against.
 *   hash_binary(buf)      bytes(S(BINARY), buf) of any buffer (a write row's output, hash-data's input).
 *   hash_events(iter)     the streaming form over (event, value) pairs named as ijson names them.
 *   Plan(...)             a typed walk (spec/typed.md): reads every field of a library's records by
 *                         attribute, item or position, and hashes the data model they stand for.
 *   ModelError            a value outside the data model (a TypeError).
 *
 * No walk recurses on the input: the tree and event walks keep an explicit stack on the heap (one
 * grow-only array per walk, kept between calls, so an operation allocates nothing of the harness's
 * own); the typed walk recurses once per struct level and stops at MAX_DEPTH levels, as typed.py does.
 * Strings are hashed over their UTF-8 bytes, encoded into a grow-only scratch buffer (never into the
 * str's own UTF-8 cache, which would make a walk over one object cheaper from its second time on). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define K_ 0x9E3779B97F4A7C15ULL
#define P0 0xA0761D6478BD642FULL
#define P1 0xE7037ED1A0B428DBULL
#define P2 0x8EBC6AF09C88C6E3ULL
#define P3 0x589965CC75374CC3ULL
#define S_NULL (1ULL * K_)
#define S_BOOL (2ULL * K_)
#define S_UINT (3ULL * K_)
#define S_NEGINT (4ULL * K_)
#define S_FLOAT (5ULL * K_)
#define S_STRING (6ULL * K_)
#define S_BINARY (7ULL * K_)
#define S_ARRAY (8ULL * K_)
#define S_MAP (9ULL * K_)
#define MAX_DEPTH 32 /* typed.MAX_DEPTH */

static PyObject *ModelError;

static inline uint64_t mum(uint64_t a, uint64_t b) {
    u128 r = (u128)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}
static inline uint64_t scalar(uint64_t s, uint64_t v) { return mum(v ^ s, P0); }
static inline uint64_t rd64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static uint64_t hash_bytes(uint64_t s, const unsigned char *b, size_t n) {
    uint64_t a = s ^ (uint64_t)n, c = 0;
    size_t i = 0;
    while (n - i >= 32) {
        a = mum(rd64(b + i) ^ P1, rd64(b + i + 8) ^ a ^ P2);
        c = mum(rd64(b + i + 16) ^ P3, rd64(b + i + 24) ^ c ^ P0);
        i += 32;
    }
    while (n - i >= 16) {
        a = mum(rd64(b + i) ^ P1, rd64(b + i + 8) ^ a ^ P2);
        i += 16;
    }
    if (i < n) {
        unsigned char tail[16] = {0};
        memcpy(tail, b + i, n - i);
        a = mum(rd64(tail) ^ P1, rd64(tail + 8) ^ a ^ P2);
    }
    return a ^ c;
}

/* --- strings ----------------------------------------------------------------------------------- */

static unsigned char *scratch;
static size_t scratch_cap;

static int hash_str(PyObject *s, uint64_t *out) {
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
        *out = hash_bytes(S_STRING, (const unsigned char *)PyUnicode_DATA(s), (size_t)PyUnicode_GET_LENGTH(s));
        return 0;
    }
    if (PyUnicode_READY(s) < 0) return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    size_t need = (size_t)len * 4 + 1;
    if (need > scratch_cap) {
        size_t cap = scratch_cap ? scratch_cap : 256;
        while (cap < need) cap *= 2;
        unsigned char *p = PyMem_RawRealloc(scratch, cap);
        if (!p) { PyErr_NoMemory(); return -1; }
        scratch = p;
        scratch_cap = cap;
    }
    unsigned char *o = scratch;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80) {
            *o++ = (unsigned char)c;
        } else if (c < 0x800) {
            *o++ = (unsigned char)(0xC0 | (c >> 6));
            *o++ = (unsigned char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            if (c >= 0xD800 && c <= 0xDFFF) {
                PyErr_SetString(ModelError, "string is not valid Unicode: surrogates not allowed");
                return -1;
            }
            *o++ = (unsigned char)(0xE0 | (c >> 12));
            *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            *o++ = (unsigned char)(0x80 | (c & 0x3F));
        } else {
            *o++ = (unsigned char)(0xF0 | (c >> 18));
            *o++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
            *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            *o++ = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
    *out = hash_bytes(S_STRING, scratch, (size_t)(o - scratch));
    return 0;
}

/* --- scalars ----------------------------------------------------------------------------------- */

static int hash_int(PyObject *v, uint64_t *out) {
    int of = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &of);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (of == 0) {
        *out = x >= 0 ? scalar(S_UINT, (uint64_t)x) : scalar(S_NEGINT, (uint64_t)x);
        return 0;
    }
    if (of > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(v);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
            *out = scalar(S_UINT, (uint64_t)u);
            return 0;
        }
        PyErr_Clear();
    }
    PyErr_SetString(ModelError, "integer outside the int64 and uint64 range is not in the serbench data model");
    return -1;
}

static inline uint64_t hash_double(double d) {
    uint64_t bits;
    memcpy(&bits, &d, 8);
    return scalar(S_FLOAT, bits);
}

/* 1 = a scalar, hashed into *out; 0 = a container; -1 = an error set. Mirrors hashing._leaf. */
static int leaf(PyObject *v, uint64_t *out) {
    PyTypeObject *t = Py_TYPE(v);
    if (t == &PyUnicode_Type) return hash_str(v, out) < 0 ? -1 : 1;
    if (t == &PyLong_Type) return hash_int(v, out) < 0 ? -1 : 1;
    if (t == &PyFloat_Type) { *out = hash_double(PyFloat_AS_DOUBLE(v)); return 1; }
    if (v == Py_None) { *out = scalar(S_NULL, 0); return 1; }
    if (t == &PyBool_Type) { *out = scalar(S_BOOL, v == Py_True); return 1; }
    if (PyDict_Check(v) || PyList_Check(v) || PyTuple_Check(v)) return 0;
    if (t == &PyBytes_Type) {
        *out = hash_bytes(S_BINARY, (const unsigned char *)PyBytes_AS_STRING(v), (size_t)PyBytes_GET_SIZE(v));
        return 1;
    }
    if (t == &PyByteArray_Type || t == &PyMemoryView_Type) {
        Py_buffer b;
        if (PyObject_GetBuffer(v, &b, PyBUF_SIMPLE) < 0) return -1;
        *out = hash_bytes(S_BINARY, b.buf, (size_t)b.len);
        PyBuffer_Release(&b);
        return 1;
    }
    if (PyLong_Check(v)) return hash_int(v, out) < 0 ? -1 : 1; /* subclasses as their base type */
    if (PyFloat_Check(v)) { *out = hash_double(PyFloat_AS_DOUBLE(v)); return 1; }
    if (PyUnicode_Check(v)) return hash_str(v, out) < 0 ? -1 : 1;
    PyErr_Format(ModelError, "value of type %s is not in the serbench data model", t->tp_name);
    return -1;
}

/* --- the tree walk ----------------------------------------------------------------------------- */

typedef struct {
    PyObject *c;      /* borrowed: alive while the root is, and no Python code runs during the walk */
    Py_ssize_t pos;   /* PyDict_Next position, or the next element's index */
    Py_ssize_t n;     /* count at the container's start */
    uint64_t acc;
    uint64_t key;     /* the pending key's hash (a map) */
    int is_map;
} Frame;

static Frame *tstack;
static size_t tstack_cap;

static int push(Frame **stack, size_t *cap, size_t sp) {
    if (sp < *cap) return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    Frame *p = PyMem_RawRealloc(*stack, ncap * sizeof(Frame));
    if (!p) { PyErr_NoMemory(); return -1; }
    *stack = p;
    *cap = ncap;
    return 0;
}

static int walk(PyObject *root, uint64_t *out) {
    size_t sp = 0;
    PyObject *v = root;
    uint64_t h = 0;
    for (;;) {
        int r = leaf(v, &h);
        if (r < 0) return -1;
        int have = r;
        if (r == 0) {
            if (push(&tstack, &tstack_cap, sp) < 0) return -1;
            Frame *f = &tstack[sp++];
            f->c = v;
            f->pos = 0;
            f->acc = 0;
            f->key = 0;
            f->is_map = PyDict_Check(v);
            f->n = f->is_map ? PyDict_GET_SIZE(v) : PySequence_Fast_GET_SIZE(v);
        }
        for (;;) {
            if (sp == 0) { *out = h; return 0; }
            Frame *f = &tstack[sp - 1];
            if (f->is_map) {
                if (have) f->acc += mum(f->key ^ P3, h ^ P0);
                PyObject *k, *x;
                if (PyDict_Next(f->c, &f->pos, &k, &x)) {
                    if (!PyUnicode_Check(k)) {
                        PyErr_Format(ModelError, "map key must be a string, got %s", Py_TYPE(k)->tp_name);
                        return -1;
                    }
                    if (hash_str(k, &f->key) < 0) return -1;
                    v = x;
                    break;
                }
                h = mum(f->acc ^ S_MAP, (uint64_t)f->n ^ P3);
            } else {
                if (have) { f->acc += mum(h ^ P1, (uint64_t)f->pos ^ P2); f->pos++; }
                if (f->pos < PySequence_Fast_GET_SIZE(f->c)) {
                    v = PySequence_Fast_GET_ITEM(f->c, f->pos);
                    break;
                }
                h = mum(f->acc ^ S_ARRAY, (uint64_t)f->n ^ P3);
            }
            have = 1;
            sp--;
        }
    }
}

static int hash_any(PyObject *v, uint64_t *out) {
    int r = leaf(v, out);
    if (r != 0) return r < 0 ? -1 : 0;
    return walk(v, out);
}

static PyObject *py_hash_object(PyObject *self, PyObject *v) {
    uint64_t h;
    if (hash_any(v, &h) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(h);
}

static PyObject *py_hash_binary(PyObject *self, PyObject *v) {
    if (PyBytes_CheckExact(v))
        return PyLong_FromUnsignedLongLong(
            hash_bytes(S_BINARY, (const unsigned char *)PyBytes_AS_STRING(v), (size_t)PyBytes_GET_SIZE(v)));
    if (PyUnicode_Check(v)) { /* a writer that returns text: its UTF-8 bytes, as they would be sent */
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(v, &n);
        if (!s) return NULL;
        return PyLong_FromUnsignedLongLong(hash_bytes(S_BINARY, (const unsigned char *)s, (size_t)n));
    }
    Py_buffer b;
    if (PyObject_GetBuffer(v, &b, PyBUF_SIMPLE) < 0) return NULL;
    uint64_t h = hash_bytes(S_BINARY, b.buf, (size_t)b.len);
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLongLong(h);
}

/* --- the streaming form over (event, value) pairs ------------------------------------------------ */

static Frame *estack;
static size_t estack_cap;

enum { EV_START_MAP, EV_END_MAP, EV_START_ARRAY, EV_END_ARRAY, EV_KEY, EV_VALUE, EV_BAD };

static int event_kind(PyObject *e) {
    if (!PyUnicode_Check(e) || !PyUnicode_IS_COMPACT_ASCII(e)) return EV_BAD;
    const char *s = (const char *)PyUnicode_DATA(e);
    switch (PyUnicode_GET_LENGTH(e)) {
    case 9:
        if (!memcmp(s, "start_map", 9)) return EV_START_MAP;
        if (!memcmp(s, "end_array", 9)) return EV_END_ARRAY;
        break;
    case 7:
        if (!memcmp(s, "end_map", 7)) return EV_END_MAP;
        if (!memcmp(s, "map_key", 7)) return EV_KEY;
        if (!memcmp(s, "boolean", 7) || !memcmp(s, "integer", 7)) return EV_VALUE;
        break;
    case 11:
        if (!memcmp(s, "start_array", 11)) return EV_START_ARRAY;
        break;
    case 4:
        if (!memcmp(s, "null", 4)) return EV_VALUE;
        break;
    case 6:
        if (!memcmp(s, "double", 6) || !memcmp(s, "number", 6) || !memcmp(s, "string", 6)) return EV_VALUE;
        break;
    }
    return EV_BAD;
}

static int bad_events(const char *why) {
    PyErr_Format(ModelError, "the events do not form a document of the data model: %s", why);
    return -1;
}

/* One event into the stack; *done set when the root value is complete. */
static int feed_event(PyObject *pair, size_t *sp, int *done, uint64_t *result) {
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) return bad_events("an event is not an (event, value) pair");
    if (*done) return bad_events("more than one root value");
    PyObject *ev = PyTuple_GET_ITEM(pair, 0), *val = PyTuple_GET_ITEM(pair, 1);
    uint64_t h;
    switch (event_kind(ev)) {
    case EV_START_MAP:
    case EV_START_ARRAY: {
        if (*sp && estack[*sp - 1].is_map == 1) return bad_events("a value without a key");
        if (push(&estack, &estack_cap, *sp) < 0) return -1;
        Frame *f = &estack[(*sp)++];
        f->acc = 0;
        f->n = 0;
        f->key = 0;
        f->is_map = event_kind(ev) == EV_START_MAP ? 1 : 0;
        return 0;
    }
    case EV_KEY: {
        if (!*sp || estack[*sp - 1].is_map != 1) return bad_events("a key outside a map");
        if (!PyUnicode_Check(val)) return bad_events("a key that is not a string");
        if (hash_str(val, &estack[*sp - 1].key) < 0) return -1;
        estack[*sp - 1].is_map = 2; /* a key pending */
        return 0;
    }
    case EV_END_MAP:
    case EV_END_ARRAY: {
        int want_map = event_kind(ev) == EV_END_MAP;
        if (!*sp) return bad_events("a close without an open container");
        Frame *f = &estack[*sp - 1];
        if (want_map ? f->is_map != 1 : f->is_map != 0) return bad_events("a close of the wrong container");
        h = mum(f->acc ^ (want_map ? S_MAP : S_ARRAY), (uint64_t)f->n ^ P3);
        (*sp)--;
        break;
    }
    case EV_VALUE:
        if (*sp && estack[*sp - 1].is_map == 1) return bad_events("a value without a key");
        if (hash_any(val, &h) < 0) return -1;
        break;
    default:
        return bad_events("an unknown event");
    }
    if (!*sp) { *result = h; *done = 1; return 0; }
    Frame *f = &estack[*sp - 1];
    if (f->is_map) { f->acc += mum(f->key ^ P3, h ^ P0); f->is_map = 1; }
    else f->acc += mum(h ^ P1, (uint64_t)f->n ^ P2);
    f->n++;
    return 0;
}

static PyObject *py_hash_events(PyObject *self, PyObject *events) {
    size_t sp = 0;
    int done = 0;
    uint64_t result = 0;
    if (PyList_CheckExact(events) || PyTuple_CheckExact(events)) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(events); i++)
            if (feed_event(PySequence_Fast_GET_ITEM(events, i), &sp, &done, &result) < 0) return NULL;
    } else {
        PyObject *it = PyObject_GetIter(events), *pair;
        if (!it) return NULL;
        while ((pair = PyIter_Next(it))) {
            int r = feed_event(pair, &sp, &done, &result);
            Py_DECREF(pair);
            if (r < 0) { Py_DECREF(it); return NULL; }
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return NULL;
    }
    if (!done) { bad_events("the document is incomplete"); return NULL; }
    return PyLong_FromUnsignedLongLong(result);
}

/* --- the typed walk ---------------------------------------------------------------------------- */

enum { T_SCALAR, T_ENUM, T_LIST, T_MAP, T_OPTIONAL, T_STRUCT };
enum { M_ATTR, M_ITEM, M_POS };

typedef struct TypeSpec {
    int kind;
    struct TypeSpec *sub;   /* list element, map value, optional's inner */
    int struct_idx;         /* T_STRUCT */
    PyObject *mapping;      /* T_ENUM: value -> name (a value not in it hashes as itself) */
    PyObject *entry_key;    /* T_MAP given as a list of entries: the entries' key and value names */
    PyObject *entry_value;
    PyObject *presence;     /* T_OPTIONAL, attribute mode: the method asked first (protobuf HasField) */
} TypeSpec;

typedef struct {
    PyObject *accessor; /* attribute name or item key (borrowed from the plan's spec) */
    Py_ssize_t pos;
    uint64_t key_hash;  /* the data-model name's hash */
    TypeSpec *type;
} FieldSpec;

typedef struct {
    int mode;
    Py_ssize_t nfields;
    FieldSpec *fields;
} StructSpec;

typedef struct {
    PyObject_HEAD
    PyObject *spec; /* keeps every borrowed object alive */
    Py_ssize_t nstructs;
    StructSpec *structs;
    int root;
    uint64_t schema_hash;
    void **allocs;
    Py_ssize_t nallocs, cap_allocs;
} PlanObject;

static void *plan_alloc(PlanObject *p, size_t size) {
    if (p->nallocs == p->cap_allocs) {
        Py_ssize_t cap = p->cap_allocs ? p->cap_allocs * 2 : 32;
        void **a = PyMem_Realloc(p->allocs, cap * sizeof(void *));
        if (!a) { PyErr_NoMemory(); return NULL; }
        p->allocs = a;
        p->cap_allocs = cap;
    }
    void *m = PyMem_Calloc(1, size);
    if (!m) { PyErr_NoMemory(); return NULL; }
    p->allocs[p->nallocs++] = m;
    return m;
}

/* type spec: ("scalar",) | ("enum", mapping) | ("list", type) | ("map", type, entries or None)
 *          | ("optional", type, presence method or None) | ("struct", index) */
static TypeSpec *parse_type(PlanObject *p, PyObject *t) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(t, 0))) {
        PyErr_SetString(PyExc_ValueError, "a type spec is a tuple starting with its kind");
        return NULL;
    }
    TypeSpec *s = plan_alloc(p, sizeof(TypeSpec));
    if (!s) return NULL;
    const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0));
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (!strcmp(k, "scalar")) {
        s->kind = T_SCALAR;
    } else if (!strcmp(k, "enum") && n == 2 && PyDict_Check(PyTuple_GET_ITEM(t, 1))) {
        s->kind = T_ENUM;
        s->mapping = PyTuple_GET_ITEM(t, 1);
    } else if (!strcmp(k, "list") && n == 2) {
        s->kind = T_LIST;
        if (!(s->sub = parse_type(p, PyTuple_GET_ITEM(t, 1)))) return NULL;
    } else if (!strcmp(k, "map") && n == 3) {
        s->kind = T_MAP;
        if (!(s->sub = parse_type(p, PyTuple_GET_ITEM(t, 1)))) return NULL;
        PyObject *e = PyTuple_GET_ITEM(t, 2);
        if (e != Py_None) {
            if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 2) {
                PyErr_SetString(PyExc_ValueError, "a map's entries are None or (key name, value name)");
                return NULL;
            }
            s->entry_key = PyTuple_GET_ITEM(e, 0);
            s->entry_value = PyTuple_GET_ITEM(e, 1);
        }
    } else if (!strcmp(k, "optional") && n == 3) {
        s->kind = T_OPTIONAL;
        if (!(s->sub = parse_type(p, PyTuple_GET_ITEM(t, 1)))) return NULL;
        if (PyTuple_GET_ITEM(t, 2) != Py_None) s->presence = PyTuple_GET_ITEM(t, 2);
    } else if (!strcmp(k, "struct") && n == 2 && PyLong_Check(PyTuple_GET_ITEM(t, 1))) {
        s->kind = T_STRUCT;
        s->struct_idx = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        if (s->struct_idx < 0 || s->struct_idx >= p->nstructs) {
            PyErr_SetString(PyExc_ValueError, "a struct index out of range");
            return NULL;
        }
    } else {
        PyErr_Format(PyExc_ValueError, "bad type spec %R", t);
        return NULL;
    }
    return s;
}

static void plan_dealloc(PlanObject *p) {
    for (Py_ssize_t i = 0; i < p->nallocs; i++) PyMem_Free(p->allocs[i]);
    PyMem_Free(p->allocs);
    Py_XDECREF(p->spec);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

/* Plan(schema, root, structs): structs a list of (mode, fields), mode "attr" | "item" | "pos",
 * fields a list of (data-model name, accessor, type spec); root the index of the records' struct. */
static PyObject *plan_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *schema, *structs;
    int root;
    if (!PyArg_ParseTuple(args, "UiO!", &schema, &root, &PyList_Type, &structs)) return NULL;
    PlanObject *p = (PlanObject *)type->tp_alloc(type, 0);
    if (!p) return NULL;
    p->spec = Py_BuildValue("(OO)", schema, structs);
    if (!p->spec) goto fail;
    p->nstructs = PyList_GET_SIZE(structs);
    if (root < 0 || root >= p->nstructs) {
        PyErr_SetString(PyExc_ValueError, "root out of range");
        goto fail;
    }
    p->root = root;
    if (hash_str(schema, &p->schema_hash) < 0) goto fail;
    if (!(p->structs = plan_alloc(p, sizeof(StructSpec) * (size_t)p->nstructs))) goto fail;
    for (Py_ssize_t i = 0; i < p->nstructs; i++) {
        PyObject *st = PyList_GET_ITEM(structs, i), *fields;
        const char *mode;
        if (!PyArg_ParseTuple(st, "sO!", &mode, &PyList_Type, &fields)) goto fail;
        StructSpec *s = &p->structs[i];
        if (!strcmp(mode, "attr")) s->mode = M_ATTR;
        else if (!strcmp(mode, "item")) s->mode = M_ITEM;
        else if (!strcmp(mode, "pos")) s->mode = M_POS;
        else { PyErr_Format(PyExc_ValueError, "bad mode %s", mode); goto fail; }
        s->nfields = PyList_GET_SIZE(fields);
        if (!(s->fields = plan_alloc(p, sizeof(FieldSpec) * (size_t)(s->nfields ? s->nfields : 1)))) goto fail;
        for (Py_ssize_t j = 0; j < s->nfields; j++) {
            PyObject *name, *acc, *t;
            if (!PyArg_ParseTuple(PyList_GET_ITEM(fields, j), "UOO", &name, &acc, &t)) goto fail;
            FieldSpec *f = &s->fields[j];
            f->accessor = acc;
            f->pos = j;
            if (hash_str(name, &f->key_hash) < 0) goto fail;
            if (!(f->type = parse_type(p, t))) goto fail;
            if (f->type->presence && s->mode != M_ATTR) {
                PyErr_SetString(PyExc_ValueError, "a presence method needs attribute mode");
                goto fail;
            }
        }
    }
    return (PyObject *)p;
fail:
    Py_DECREF(p);
    return NULL;
}

static int hash_struct(PlanObject *p, int idx, PyObject *obj, int depth, uint64_t *out);

static int hash_typed_value(PlanObject *p, TypeSpec *t, PyObject *v, int depth, uint64_t *out) {
    switch (t->kind) {
    case T_SCALAR:
        return hash_any(v, out);
    case T_ENUM: {
        PyObject *name = PyDict_GetItemWithError(t->mapping, v);
        if (!name) {
            if (PyErr_Occurred()) return -1;
            name = v;
        }
        return hash_any(name, out);
    }
    case T_OPTIONAL:
        if (v == Py_None) { *out = scalar(S_NULL, 0); return 0; }
        return hash_typed_value(p, t->sub, v, depth, out);
    case T_STRUCT:
        return hash_struct(p, t->struct_idx, v, depth + 1, out);
    case T_LIST: {
        uint64_t acc = 0, h;
        Py_ssize_t i = 0;
        if (PyList_Check(v) || PyTuple_Check(v)) {
            for (; i < PySequence_Fast_GET_SIZE(v); i++) {
                PyObject *x = PySequence_Fast_GET_ITEM(v, i);
                Py_INCREF(x); /* an accessor may run Python code */
                int r = hash_typed_value(p, t->sub, x, depth, &h);
                Py_DECREF(x);
                if (r < 0) return -1;
                acc += mum(h ^ P1, (uint64_t)i ^ P2);
            }
        } else {
            PyObject *it = PyObject_GetIter(v), *x;
            if (!it) return -1;
            while ((x = PyIter_Next(it))) {
                int r = hash_typed_value(p, t->sub, x, depth, &h);
                Py_DECREF(x);
                if (r < 0) { Py_DECREF(it); return -1; }
                acc += mum(h ^ P1, (uint64_t)i ^ P2);
                i++;
            }
            Py_DECREF(it);
            if (PyErr_Occurred()) return -1;
        }
        *out = mum(acc ^ S_ARRAY, (uint64_t)i ^ P3);
        return 0;
    }
    case T_MAP: {
        uint64_t acc = 0, kh, vh;
        Py_ssize_t n = 0;
        PyObject *it, *e;
        if (PyDict_Check(v) && !t->entry_key) {
            Py_ssize_t pos = 0;
            PyObject *k, *x;
            while (PyDict_Next(v, &pos, &k, &x)) {
                if (!PyUnicode_Check(k)) {
                    PyErr_Format(ModelError, "map key must be a string, got %s", Py_TYPE(k)->tp_name);
                    return -1;
                }
                if (hash_str(k, &kh) < 0) return -1;
                Py_INCREF(x);
                int r = hash_typed_value(p, t->sub, x, depth, &vh);
                Py_DECREF(x);
                if (r < 0) return -1;
                acc += mum(kh ^ P3, vh ^ P0);
                n++;
            }
            *out = mum(acc ^ S_MAP, (uint64_t)n ^ P3);
            return 0;
        }
        if (!t->entry_key && PyObject_HasAttrString(v, "items")) {
            PyObject *items = PyObject_CallMethod(v, "items", NULL);
            if (!items) return -1;
            it = PyObject_GetIter(items);
            Py_DECREF(items);
        } else {
            it = PyObject_GetIter(v);
        }
        if (!it) return -1;
        while ((e = PyIter_Next(it))) {
            PyObject *k, *x;
            if (t->entry_key) {
                k = PyObject_GetItem(e, t->entry_key);
                x = k ? PyObject_GetItem(e, t->entry_value) : NULL;
            } else {
                PyObject *pair = PySequence_Tuple(e);
                k = x = NULL;
                if (pair && PyTuple_GET_SIZE(pair) == 2) {
                    k = PyTuple_GET_ITEM(pair, 0);
                    x = PyTuple_GET_ITEM(pair, 1);
                    Py_INCREF(k);
                    Py_INCREF(x);
                } else if (pair) {
                    PyErr_SetString(ModelError, "a map entry is not a (key, value) pair");
                }
                Py_XDECREF(pair);
            }
            Py_DECREF(e);
            int r = -1;
            if (k && x) {
                if (!PyUnicode_Check(k))
                    PyErr_Format(ModelError, "map key must be a string, got %s", Py_TYPE(k)->tp_name);
                else if (hash_str(k, &kh) == 0)
                    r = hash_typed_value(p, t->sub, x, depth, &vh);
            }
            Py_XDECREF(k);
            Py_XDECREF(x);
            if (r < 0) { Py_DECREF(it); return -1; }
            acc += mum(kh ^ P3, vh ^ P0);
            n++;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return -1;
        *out = mum(acc ^ S_MAP, (uint64_t)n ^ P3);
        return 0;
    }
    }
    PyErr_SetString(PyExc_SystemError, "bad type kind");
    return -1;
}

static int hash_struct(PlanObject *p, int idx, PyObject *obj, int depth, uint64_t *out) {
    if (depth > MAX_DEPTH) {
        PyErr_Format(ModelError, "records nested deeper than %d", MAX_DEPTH);
        return -1;
    }
    StructSpec *s = &p->structs[idx];
    if (s->mode == M_POS) {
        if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
            PyErr_Format(ModelError, "a record read by position is a tuple, not %s", Py_TYPE(obj)->tp_name);
            return -1;
        }
        if (PySequence_Fast_GET_SIZE(obj) != s->nfields) {
            PyErr_Format(ModelError, "a record of %zd fields, not %zd", PySequence_Fast_GET_SIZE(obj), s->nfields);
            return -1;
        }
    }
    uint64_t acc = 0, h;
    for (Py_ssize_t j = 0; j < s->nfields; j++) {
        FieldSpec *f = &s->fields[j];
        PyObject *v;
        if (s->mode == M_POS) {
            v = PySequence_Fast_GET_ITEM(obj, f->pos);
            Py_INCREF(v);
        } else if (s->mode == M_ITEM) {
            if (PyDict_Check(obj)) {
                v = PyDict_GetItemWithError(obj, f->accessor); /* absent: None, as dict.get */
                if (!v && PyErr_Occurred()) return -1;
                v = v ? v : Py_None;
                Py_INCREF(v);
            } else if (!(v = PyObject_GetItem(obj, f->accessor))) {
                return -1;
            }
        } else {
            if (f->type->presence) {
                PyObject *has = PyObject_CallMethodOneArg(obj, f->type->presence, f->accessor);
                if (!has) return -1;
                int set = PyObject_IsTrue(has);
                Py_DECREF(has);
                if (set < 0) return -1;
                if (!set) {
                    acc += mum(f->key_hash ^ P3, scalar(S_NULL, 0) ^ P0);
                    continue;
                }
            }
            if (!(v = PyObject_GetAttr(obj, f->accessor))) return -1;
        }
        int r = hash_typed_value(p, f->type, v, depth, &h);
        Py_DECREF(v);
        if (r < 0) return -1;
        acc += mum(f->key_hash ^ P3, h ^ P0);
    }
    *out = mum(acc ^ S_MAP, (uint64_t)s->nfields ^ P3);
    return 0;
}

static int hash_records(PlanObject *p, PyObject *records, uint64_t *out) {
    uint64_t acc = 0, h;
    Py_ssize_t i = 0;
    PyObject *it = PyObject_GetIter(records), *r;
    if (!it) return -1;
    while ((r = PyIter_Next(it))) {
        int e = hash_struct(p, p->root, r, 0, &h);
        Py_DECREF(r);
        if (e < 0) { Py_DECREF(it); return -1; }
        acc += mum(h ^ P1, (uint64_t)i ^ P2);
        i++;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return -1;
    *out = mum(acc ^ S_ARRAY, (uint64_t)i ^ P3);
    return 0;
}

/* The typed hash of a dataset: {"schema": schema, "records": [record, ...]} (typed.document_hash). */
static PyObject *plan_hash(PlanObject *p, PyObject *records) {
    uint64_t rh, ks, kr;
    if (hash_records(p, records, &rh) < 0) return NULL;
    ks = hash_bytes(S_STRING, (const unsigned char *)"schema", 6);
    kr = hash_bytes(S_STRING, (const unsigned char *)"records", 7);
    uint64_t acc = mum(ks ^ P3, p->schema_hash ^ P0) + mum(kr ^ P3, rh ^ P0);
    return PyLong_FromUnsignedLongLong(mum(acc ^ S_MAP, 2 ^ P3));
}

/* The typed hash of one record (its data model's object hash). */
static PyObject *plan_hash_one(PlanObject *p, PyObject *record) {
    uint64_t h;
    if (hash_struct(p, p->root, record, 0, &h) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(h);
}

static PyMethodDef plan_methods[] = {
    {"hash", (PyCFunction)plan_hash, METH_O, "The typed hash of a dataset's records (an iterable)."},
    {"hash_one", (PyCFunction)plan_hash_one, METH_O, "The typed hash of one record."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sbwalk.Plan",
    .tp_basicsize = sizeof(PlanObject),
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Plan(schema, root, structs): a compiled typed walk (spec/typed.md)",
    .tp_methods = plan_methods,
    .tp_new = plan_new,
};

/* --- counting allocations (the alloc pass) -------------------------------------------------------- */

static PyMemAllocatorEx saved[2];
static unsigned long long nallocs;

static void *c_malloc(void *ctx, size_t n) {
    PyMemAllocatorEx *a = ctx;
    __atomic_fetch_add(&nallocs, 1, __ATOMIC_RELAXED);
    return a->malloc(a->ctx, n);
}
static void *c_calloc(void *ctx, size_t e, size_t n) {
    PyMemAllocatorEx *a = ctx;
    __atomic_fetch_add(&nallocs, 1, __ATOMIC_RELAXED);
    return a->calloc(a->ctx, e, n);
}
static void *c_realloc(void *ctx, void *p, size_t n) {
    PyMemAllocatorEx *a = ctx;
    __atomic_fetch_add(&nallocs, 1, __ATOMIC_RELAXED);
    return a->realloc(a->ctx, p, n);
}
static void c_free(void *ctx, void *p) {
    PyMemAllocatorEx *a = ctx;
    a->free(a->ctx, p);
}

/* count_allocations(fn, arg) -> (calls, fn(arg)): the malloc, calloc and realloc calls made through
 * CPython's object and mem allocator domains (PyObject_Malloc, PyMem_Malloc: every Python object)
 * while fn(arg) runs. Not the raw domain, which pymalloc itself calls for blocks over 512 bytes (they
 * would count twice); a library's direct calls to the C library's malloc (upb's arenas, simdjson's
 * buffers) are not seen either. */
static PyObject *py_count_allocations(PyObject *self, PyObject *args) {
    PyObject *fn, *arg;
    if (!PyArg_ParseTuple(args, "OO", &fn, &arg)) return NULL;
    static const PyMemAllocatorDomain domains[2] = {PYMEM_DOMAIN_MEM, PYMEM_DOMAIN_OBJ};
    for (int i = 0; i < 2; i++) {
        PyMem_GetAllocator(domains[i], &saved[i]);
        PyMemAllocatorEx w = {&saved[i], c_malloc, c_calloc, c_realloc, c_free};
        PyMem_SetAllocator(domains[i], &w);
    }
    nallocs = 0;
    PyObject *r = PyObject_CallOneArg(fn, arg);
    unsigned long long n = nallocs;
    for (int i = 0; i < 2; i++) PyMem_SetAllocator(domains[i], &saved[i]);
    if (!r) return NULL;
    PyObject *out = Py_BuildValue("(KN)", n, r);
    return out;
}

/* --- module ------------------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"hash_object", py_hash_object, METH_O, "The object hash (tree form) of a Python value."},
    {"hash_binary", py_hash_binary, METH_O, "bytes(S(BINARY), b) of a buffer (str: its UTF-8 bytes)."},
    {"hash_events", py_hash_events, METH_O, "The streaming form over (event, value) pairs (ijson's names)."},
    {"count_allocations", py_count_allocations, METH_VARARGS,
     "(calls, fn(arg)): allocation calls through CPython's allocators while fn(arg) runs."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "sbwalk", "serbench's compiled hash walks", -1, methods};

PyMODINIT_FUNC PyInit_sbwalk(void) {
    if (PyType_Ready(&PlanType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    ModelError = PyErr_NewExceptionWithDoc("sbwalk.ModelError",
                                           "A value outside the serbench data model (the harness cannot hash it).",
                                           PyExc_TypeError, NULL);
    if (!ModelError || PyModule_AddObjectRef(m, "ModelError", ModelError) < 0 ||
        PyModule_AddObjectRef(m, "Plan", (PyObject *)&PlanType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_DEPTH", MAX_DEPTH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
