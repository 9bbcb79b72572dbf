// The SDK's Server builds an Ajv instance (compiling its meta-schemas, adding formats: ~3 ms)
// when it is constructed, for the one feature that uses it on a server — validating an
// elicitation's answer, which tuiwright never asks for. This hands the SDK the same Ajv
// validator, built the first time something asks for one, so start-up does not pay for it.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

export class DeferredAjvValidator implements jsonSchemaValidator {
  #ajv: AjvJsonSchemaValidator | null = null;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#ajv ??= new AjvJsonSchemaValidator();
    return this.#ajv.getValidator<T>(schema);
  }
}
