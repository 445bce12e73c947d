export type { WidgetServiceApi } from './widget.service';
