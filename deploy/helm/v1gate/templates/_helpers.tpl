{{- define "v1gate.labels" -}}
app.kubernetes.io/name: v1gate
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "v1gate.selector" -}}
app.kubernetes.io/name: v1gate
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "v1gate.redisSelector" -}}
app.kubernetes.io/name: v1gate-redis
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "v1gate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ default .Release.Name .Values.serviceAccount.name }}{{- else -}}{{ default "default" .Values.serviceAccount.name }}{{- end -}}
{{- end -}}
