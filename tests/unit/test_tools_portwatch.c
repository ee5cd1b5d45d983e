// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* srp-discover's daemon port watch, on a fake /sys/class/infiniband. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdi_test.h"
#include "srp-discover/portwatch.h"

static char root[64];

static void port_attr(const char *dev, const char *attr, const char *val)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s", root, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports", root, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/1", root, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/1/gids", root, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/1/%s", root,
		 dev, attr);
	f = fopen(path, "w");
	fputs(val, f);
	fclose(f);
}

RDI_TEST(portwatch_sees_ports_become_active_appear_and_change)
{
	struct port_watch *w = calloc(1, sizeof(*w));
	char why[256] = "", cmd[128];

	strcpy(root, "/tmp/rdi-ports-XXXXXX");
	mkdtemp(root);
	setenv("SYSFS_PATH", root, 1);
	port_attr("rxe0", "state", "1: DOWN\n");
	port_attr("rxe0", "gids/0", "fe80:0000:0000:0000:744c:8eff:fe4a:7b42\n");
	portwatch_init(w);
	EXPECT_EQ(w->n, 1);
	EXPECT_EQ(portwatch_changed(w, why, sizeof(why)), 0);

	port_attr("rxe0", "state", "4: ACTIVE\n");
	EXPECT_EQ(portwatch_changed(w, why, sizeof(why)), 1);
	EXPECT(strstr(why, "rxe0 port 1 changed"));
	EXPECT_EQ(portwatch_changed(w, why, sizeof(why)), 0);

	port_attr("rxe1", "state", "4: ACTIVE\n");
	EXPECT_EQ(portwatch_changed(w, why, sizeof(why)), 1);
	EXPECT(strstr(why, "rxe1 port 1 appeared"));

	port_attr("rxe0", "gids/0", "fe80:0000:0000:0000:744c:8eff:fe4a:7b43\n");
	EXPECT_EQ(portwatch_changed(w, why, sizeof(why)), 1);
	EXPECT(strstr(why, "rxe0 port 1 changed"));

	port_attr("rxe1", "state", "1: DOWN\n");	/* going down: no rescan */
	EXPECT_EQ(portwatch_changed(w, why, sizeof(why)), 0);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ(system(cmd), 0);
	free(w);
}

RDI_TEST_MAIN()
