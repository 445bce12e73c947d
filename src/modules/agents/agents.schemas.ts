import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { idParams } from '../../platform/http/schemas';
import { PAIR_CODE_ALPHABET, PAIR_CODE_LENGTH } from './agents.pair-code';
import { DEVICE_CONNECTIONS, DEVICE_TYPES } from './agents.types';

const comPort = Joi.string()
  .trim()
  .uppercase()
  .pattern(/^COM[1-9][0-9]{0,2}$/, 'COM port')
  .messages({ 'string.pattern.name': '{{#label}} must be a serial port such as COM3' });

const name = Joi.string().trim().min(1).max(100);

const workstationFields = {
  name,
  ttlock_com_port: comPort.allow(null).description('The serial port of the TTLock card encoder, e.g. COM3'),
};

export const createWorkstationBody = Joi.object({ ...workstationFields, name: name.required() });
export const updateWorkstationBody = Joi.object(workstationFields).min(1);

const deviceSettingKey = /^[a-z][a-z0-9_]{0,39}$/;

/** Driver settings of a device: a few short scalars by name, `dto_device_id` being the ATOL driver's device number. */
const deviceConfig = Joi.object({
  dto_device_id: Joi.string().trim().min(1).max(64).description("The device's number in the ATOL DTO driver"),
})
  .pattern(deviceSettingKey, Joi.alternatives(Joi.string().max(500), Joi.number(), Joi.boolean()).allow(null))
  .max(20);

const deviceFields = {
  name,
  type: Joi.string().valid(...DEVICE_TYPES),
  connection: Joi.string().valid(...DEVICE_CONNECTIONS),
  com_port: comPort.allow(null).description('Required when `connection` is `com`'),
  fiscal_mode: Joi.string()
    .trim()
    .lowercase()
    .pattern(/^[a-z0-9_]{1,32}$/, 'fiscal mode')
    .allow(null)
    .description('The fiscal driver, e.g. `atol`'),
  dto_port: Joi.number().integer().min(1).max(65535).allow(null).description("The ATOL DTO driver's TCP port"),
  config: deviceConfig,
};

export const createDeviceBody = Joi.object({
  ...deviceFields,
  name: name.required(),
  type: deviceFields.type.required(),
  connection: deviceFields.connection.required(),
});
export const updateDeviceBody = Joi.object(deviceFields).min(1);

export const deviceParams = idParams.keys({ deviceId: Joi.string().uuid().required() });

export const pairBody = Joi.object({
  pair_code: Joi.string()
    .trim()
    .uppercase()
    .length(PAIR_CODE_LENGTH)
    .pattern(/^[A-Z0-9]+$/, 'pair code')
    .required()
    .description(`The ${PAIR_CODE_LENGTH} characters staff were shown (${PAIR_CODE_ALPHABET})`),
  agent_version: Joi.string().trim().min(1).max(50),
  machine_name: Joi.string().trim().min(1).max(100),
});

export const workstationSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  ttlock_com_port: Joi.string().allow(null),
  agent_version: Joi.string().allow(null),
  machine_name: Joi.string().allow(null),
  online: Joi.boolean(),
  last_seen_at: Joi.date().allow(null),
  paired: Joi.boolean().description('An agent holds a valid credential for it'),
  credential_issued_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('Workstation'));

export const deviceSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  workstation_id: Joi.string().uuid(),
  name: Joi.string(),
  type: Joi.string().valid(...DEVICE_TYPES),
  connection: Joi.string().valid(...DEVICE_CONNECTIONS),
  com_port: Joi.string().allow(null),
  fiscal_mode: Joi.string().allow(null),
  dto_port: Joi.number().integer().allow(null),
  config: Joi.object().unknown(true),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('WorkstationDevice'));

export const pairCodeSchema = Joi.object({
  pair_code: Joi.string().length(PAIR_CODE_LENGTH),
  expires_at: Joi.date(),
});

export const pairingSchema = Joi.object({
  workstation_id: Joi.string().uuid(),
  hotel_slug: Joi.string(),
  credential: Joi.string().description('Shown once: the agent keeps it, the server keeps only its hash'),
});

export const releaseSchema = Joi.object({
  version: Joi.string(),
  url: Joi.string().allow(null),
  sha256: Joi.string().allow(null),
  notes: Joi.string().allow(''),
  published_at: Joi.date().allow(null),
});
