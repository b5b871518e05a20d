"""The golden set: each scene's ops (io.navd.Mutate) and the width it is drawn at.

Every scene is built from nothing by its ops, so its layout, and so its picture, depends only
on navd's rules and navd-gtk's drawing."""

from __future__ import annotations


def item(id: str, **fields) -> dict:
    return {"op": "defineBarButtonItem", "barButtonItem": {"id": id, **fields}}


def push(id: str, **fields) -> dict:
    return {"op": "push", "item": {"id": id, **fields}}


# The README's mail app ("Using it"), after `navctl push Message`.
MAIL = [
    item("edit", systemItem="edit"),
    item("compose", systemItem="compose", action="mail.compose"),
    push("inbox", title="Inbox", leftBarButtonItems=["edit"], rightBarButtonItems=["compose"]),
    item("refresh", systemItem="refresh"),
    item("flex", systemItem="flexibleSpace"),
    item("trash", systemItem="trash"),
    {"op": "setToolbarItems", "items": ["refresh", "flex", "trash"]},
    push("message", title="Message"),
]

# SEMANTICS §20 example 2 at 320 points: one item overflows on each side.
OVERFLOW = [
    item("search", systemItem="search"),
    item("filter", title="Filter"),
    item("add", systemItem="add"),
    item("share", title="Share"),
    item("info", image={"name": "dialog-information-symbolic"}),
    push("chats", title="Chats"),
    push("messages", title="Messages", leftItemsSupplementBackButton=True, leftBarButtonItems=["search", "filter"],
         rightBarButtonItems=["add", "share", "info"]),
    {"op": "setBarHidden", "bar": "toolbar", "hidden": True},
]

# A prompt line over the bar, a done-style item and a bordered one.
PROMPT = [
    item("cancel", systemItem="cancel", style="bordered"),
    item("save", title="Save", style="done"),
    push("compose", title="New Message", prompt="Enter the recipients", leftBarButtonItems=["cancel"],
         rightBarButtonItems=["save"]),
    {"op": "setBarHidden", "bar": "toolbar", "hidden": True},
]

# Tints: the scene's orange, one item's own green, a tinted bar colour and a coloured title.
TINTED = [
    {"op": "setSceneTint", "tintColor": "#FF9500"},
    item("add", systemItem="add", tintColor="#34C759"),
    item("bookmarks", systemItem="bookmarks"),
    push("places", title="Places"),
    push("favourites", title="Favourites", rightBarButtonItems=["add", "bookmarks"]),
    {"op": "updateAppearance", "target": "navigationBar",
     "set": {"barTintColor": "#FFF4E0", "translucent": False, "titleTextAttributes": {"color": "#8A4B00"}}},
    {"op": "setToolbarItems", "items": ["bookmarks"]},
]

# Both bars in the black style.
BLACK = [
    item("play", systemItem="play"),
    item("pause", systemItem="pause"),
    item("fx", systemItem="flexibleSpace"),
    item("done", systemItem="done", style="done"),
    push("library", title="Library"),
    push("track", title="Now Playing", rightBarButtonItems=["done"]),
    {"op": "setToolbarItems", "items": ["play", "fx", "pause"]},
    {"op": "updateAppearance", "target": "defaultNavigationBar", "set": {"barStyle": "black"}},
    {"op": "updateAppearance", "target": "defaultToolbar", "set": {"barStyle": "black"}},
]

# SEMANTICS §20 example 4's second toolbar: a fixed space of 20 and one flexible space.
TOOLBAR = [
    item("a", systemItem="rewind"),
    item("fx", systemItem="fixedSpace", width=20),
    item("b", systemItem="play"),
    item("c", title="Edit"),
    item("f", systemItem="flexibleSpace"),
    item("d", systemItem="reply"),
    item("e", systemItem="compose"),
    push("root", title="Toolbar"),
    {"op": "setToolbarItems", "items": ["a", "fx", "b", "c", "f", "d", "e"]},
]

# Disabled items (and a disabled back button, through its backBarButtonItem) are insensitive.
DISABLED = [
    item("back", title="Drafts", enabled=False),
    item("send", title="Send", style="bordered", enabled=False),
    item("attach", systemItem="camera", enabled=False),
    item("trash", systemItem="trash"),
    push("drafts", title="Drafts", backBarButtonItem="back"),
    push("draft", title="Draft", rightBarButtonItems=["send", "attach"]),
    {"op": "setToolbarItems", "items": ["trash"]},
]

# A title view and a custom-view item: navd knows only their names and sizes, so they are drawn
# as dashed placeholders of those sizes.
TITLE_VIEW = [
    item("volume", customView={"name": "slider", "width": 90, "height": 24}),
    push("settings", title="Settings"),
    push("sound", title="Sound", titleView={"name": "segmented control", "width": 160, "height": 30},
         rightBarButtonItems=["volume"]),
    {"op": "setBarHidden", "bar": "toolbar", "hidden": True},
]

# name → (ops, width)
GOLDEN_SCENES = {
    "mail": (MAIL, 375),
    "overflow": (OVERFLOW, 320),
    "prompt": (PROMPT, 375),
    "tinted": (TINTED, 375),
    "black": (BLACK, 375),
    "toolbar": (TOOLBAR, 375),
    "disabled": (DISABLED, 375),
    "titleview": (TITLE_VIEW, 420),
}
