module v1gate.local/clients/go

go 1.19
