import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';

/** What staff may ask a desk to ping: a host name or an address on its network (the lock gateway, the TV server). */
export const pingBody = Joi.object({
  host: Joi.alternatives()
    .try(Joi.string().ip({ cidr: 'forbidden' }), Joi.string().hostname().max(253))
    .required()
    .description('Host name or IP address, as the desk reaches it'),
});

export const testDeviceBody = Joi.object({ device_id: Joi.string().uuid().required() });

const echoReply = Joi.object({
  seq: Joi.number().integer().min(1).max(4).required(),
  time_ms: Joi.number().min(0).max(600_000),
  error: Joi.string().max(200),
}).meta(openApiComponent('EchoReply'));

export const pingResult = Joi.object({
  host: Joi.string().max(253).required(),
  sent: Joi.number().integer().valid(4).required(),
  received: Joi.number().integer().min(0).max(4).required(),
  replies: Joi.array().items(echoReply).max(4).required(),
}).meta(openApiComponent('PingResult'));

export const portsResult = Joi.object({
  ports: Joi.array()
    .items(
      Joi.object({ name: Joi.string().max(64).required(), description: Joi.string().max(200).allow('') }).meta(
        openApiComponent('SerialPort'),
      ),
    )
    .max(256)
    .required(),
}).meta(openApiComponent('SerialPorts'));

export const printersResult = Joi.object({
  printers: Joi.array()
    .items(
      Joi.object({
        name: Joi.string().max(256).required(),
        is_default: Joi.boolean().required(),
        status: Joi.string().max(100).allow(''),
      }).meta(openApiComponent('Printer')),
    )
    .max(256)
    .required(),
}).meta(openApiComponent('Printers'));

export const deviceTestResult = Joi.object({
  message: Joi.string().max(2000).allow('').required(),
  details: Joi.object().unknown(true),
}).meta(openApiComponent('DeviceTestResult'));

export const updateResult = Joi.object({
  workstation_id: Joi.string().uuid(),
  version: Joi.string(),
  accepted: Joi.boolean().required(),
}).meta(openApiComponent('AgentUpdate'));

export const updateAllResult = Joi.object({
  version: Joi.string(),
  requested: Joi.number().integer().description('Online workstations whose agent is on another version'),
  results: Joi.array().items(
    Joi.object({
      workstation_id: Joi.string().uuid(),
      accepted: Joi.boolean(),
      error: Joi.string().allow(null).description('Why this desk did not take the update'),
    }).meta(openApiComponent('AgentUpdateOutcome')),
  ),
}).meta(openApiComponent('AgentUpdates'));

export const updateAcceptance = Joi.object({ accepted: Joi.boolean().required() });

export const dllInfoResult = Joi.object({
  dll_version: Joi.string().max(100).required(),
  encoder_connected: Joi.boolean().required(),
}).meta(openApiComponent('EncoderDllInfo'));
