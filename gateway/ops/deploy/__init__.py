"""Deployment files shipped with the gateway: systemd units (README.md, "Deployment")."""
