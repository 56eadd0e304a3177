"""Building blocks a rule-system plugin may share: reading roll words, exact odds, tie-breaking and
generic command sets (characters and sheets, an initiative tracker). Nothing here names a system;
what differs between systems comes in as parameters (a sheet schema, the plugin's own messages)."""
