/*
 * libcurl, loaded when a command first uses it (HTTP(S) ingest, summary
 * --post) instead of at every start: linking it loads 30 libraries (TLS,
 * Kerberos, LDAP, ...), 6 MB of memory and 5 ms before main for commands
 * that never fetch anything. These are the libcurl functions tiadash
 * calls, each forwarding to the library's own; curl.h declares them.
 */
#define CURL_DISABLE_TYPECHECK /* the functions are defined here, not wrapped in checks */
#include "core/tiadash.h"
#include "core/util.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>

#define LIBCURL_SONAME "libcurl.so.4"

/*
 * The functions with fixed arguments: X(name, return type, parameters,
 * arguments), V(name, parameters, arguments) for those returning nothing.
 */
#define FIXED_FUNCS(X, V)                                                               \
	X(curl_global_init, CURLcode, (long flags), (flags))                            \
	V(curl_global_cleanup, (void), ())                                              \
	X(curl_easy_init, CURL *, (void), ())                                           \
	V(curl_easy_cleanup, (CURL *h), (h))                                            \
	V(curl_easy_reset, (CURL *h), (h))                                              \
	X(curl_easy_perform, CURLcode, (CURL *h), (h))                                  \
	X(curl_easy_strerror, const char *, (CURLcode code), (code))                    \
	V(curl_free, (void *p), (p))                                                    \
	X(curl_getdate, time_t, (const char *p, const time_t *unused), (p, unused))     \
	X(curl_slist_append, struct curl_slist *, (struct curl_slist *l, const char *s), \
	  (l, s))                                                                       \
	V(curl_slist_free_all, (struct curl_slist *l), (l))                             \
	X(curl_multi_init, CURLM *, (void), ())                                         \
	X(curl_multi_cleanup, CURLMcode, (CURLM *m), (m))                               \
	X(curl_multi_add_handle, CURLMcode, (CURLM *m, CURL *h), (m, h))                \
	X(curl_multi_remove_handle, CURLMcode, (CURLM *m, CURL *h), (m, h))             \
	X(curl_multi_perform, CURLMcode, (CURLM *m, int *running), (m, running))        \
	X(curl_multi_poll, CURLMcode,                                                   \
	  (CURLM *m, struct curl_waitfd extra[], unsigned n, int timeout_ms, int *ret),   \
	  (m, extra, n, timeout_ms, ret))                                               \
	X(curl_multi_wakeup, CURLMcode, (CURLM *m), (m))                                \
	X(curl_multi_info_read, CURLMsg *, (CURLM *m, int *left), (m, left))            \
	X(curl_url, CURLU *, (void), ())                                                \
	V(curl_url_cleanup, (CURLU *u), (u))                                            \
	X(curl_url_get, CURLUcode, (CURLU *u, CURLUPart what, char **part, unsigned f), \
	  (u, what, part, f))                                                           \
	X(curl_url_set, CURLUcode,                                                      \
	  (CURLU *u, CURLUPart what, const char *part, unsigned f), (u, what, part, f))

/* The variadic ones take one argument after the option. */
#define VARIADIC_FUNCS(X)                                                         \
	X(curl_easy_setopt, CURLcode, CURL *, CURLoption)                         \
	X(curl_easy_getinfo, CURLcode, CURL *, CURLINFO)                          \
	X(curl_multi_setopt, CURLMcode, CURLM *, CURLMoption)

static struct {
#define POINTER(name, ret, params, args) ret (*name) params;
#define VOID_POINTER(name, params, args) void (*name) params;
	FIXED_FUNCS(POINTER, VOID_POINTER)
#undef VOID_POINTER
#undef POINTER
#define POINTER(name, ret, handle, option) ret (*name)(handle, option, ...);
	VARIADIC_FUNCS(POINTER)
#undef POINTER
} lib;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* Without libcurl no fetch can go on: the message says which library to install. */
static void *symbol(void *handle, const char *name)
{
	void *p = dlsym(handle, name);

	if (!p)
		die("%s has no %s: %s", LIBCURL_SONAME, name, dlerror());
	return p;
}

static void load(void)
{
	void *h = dlopen(LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		die("cannot load %s (Debian's libcurl4 package): %s", LIBCURL_SONAME, dlerror());
#define RESOLVE(name, ...) *(void **)&lib.name = symbol(h, #name);
	FIXED_FUNCS(RESOLVE, RESOLVE)
	VARIADIC_FUNCS(RESOLVE)
#undef RESOLVE
}

#define FORWARD(name, ret, params, args)          \
	ret name params                           \
	{                                         \
		pthread_once(&loaded, load);      \
		return lib.name args;             \
	}
#define FORWARD_VOID(name, params, args)          \
	void name params                          \
	{                                         \
		pthread_once(&loaded, load);      \
		lib.name args;                    \
	}
FIXED_FUNCS(FORWARD, FORWARD_VOID)
#undef FORWARD_VOID
#undef FORWARD

/*
 * The argument after an option is a long, an object, a function or a
 * curl_off_t, by the option's number (curl.h's CURLOPTTYPE_* ranges, the
 * same for the multi options): passed on as that type.
 */
#define FORWARD(name, ret, handle_type, option_type)                                     \
	ret name(handle_type h, option_type opt, ...)                                    \
	{                                                                                \
		va_list ap;                                                              \
		ret rc;                                                                  \
                                                                                         \
		pthread_once(&loaded, load);                                             \
		va_start(ap, opt);                                                       \
		if ((long)opt < CURLOPTTYPE_OBJECTPOINT)                                 \
			rc = lib.name(h, opt, va_arg(ap, long));                         \
		else if ((long)opt < CURLOPTTYPE_FUNCTIONPOINT)                          \
			rc = lib.name(h, opt, va_arg(ap, void *));                       \
		else if ((long)opt < CURLOPTTYPE_OFF_T)                                  \
			rc = lib.name(h, opt, va_arg(ap, void (*)(void)));               \
		else if ((long)opt < CURLOPTTYPE_BLOB)                                   \
			rc = lib.name(h, opt, va_arg(ap, curl_off_t));                   \
		else                                                                     \
			rc = lib.name(h, opt, va_arg(ap, void *));                       \
		va_end(ap);                                                              \
		return rc;                                                               \
	}
FORWARD(curl_easy_setopt, CURLcode, CURL *, CURLoption)
FORWARD(curl_multi_setopt, CURLMcode, CURLM *, CURLMoption)
#undef FORWARD

/* Every CURLINFO argument is a pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	va_list ap;
	void *out;

	pthread_once(&loaded, load);
	va_start(ap, info);
	out = va_arg(ap, void *);
	va_end(ap);
	return lib.curl_easy_getinfo(h, info, out);
}
