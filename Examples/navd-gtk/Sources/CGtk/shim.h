// GTK 4's whole C API (Debian's libgtk-4-dev, found with pkg-config gtk4), and GLib's
// Unix-only sources (g_unix_fd_add), which <gtk/gtk.h> leaves out.
#include <gtk/gtk.h>
#include <glib-unix.h>
