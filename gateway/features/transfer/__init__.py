"""A chronicle's characters (sheets, pools, rolls, Storyteller-log entries, audit rows) moved between
deployments as one versioned JSON file: ``format`` is the file (pure), ``export`` and ``importer`` the
vault's side, ``cli`` the ``gateway export characters`` and ``gateway import characters`` commands,
``one`` the chat's ``char export`` and ``st import``. Nothing is imported here: every process loads
``one``, and the format's models are built only where a file is read or written.
"""
