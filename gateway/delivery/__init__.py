"""Getting work done once, in order, across processes: the transactional outbox and its workers
(``outbox``, ``queue``), leases for work one process must own (``leases``), pacing and shared
rate buckets, inbound de-duplication (``seen``) and each process's heartbeat row.
"""
